package io.redlock.internal.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.protocol.AsyncCommand;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A batch on a real node: property, every call of a batch runs on its own keys and args, whatever their counts up to
 * the most a plan's byte says ({@link ScriptBatch#MOST_IN_A_PLAN_BYTE}), by EVAL and by EVALSHA alike.
 */
@WithRedisNodes(1)
class BatchPlanIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    /** What a call sees: how many keys and args, and its last key and arg (numbers). */
    private static final Script SHAPE = Script.of("shape",
            "return #KEYS * 1000000 + #ARGV * 1000 + tonumber(KEYS[#KEYS]) + tonumber(ARGV[#ARGV])");
    private static final Script ECHO = Script.of("echo", "return tonumber(KEYS[1]) * 1000 + tonumber(ARGV[1])");
    private static final ScriptBatch BATCH = ScriptBatch.of(List.of(SHAPE, ECHO));

    @Test
    void everyCallOfABatchSeesItsOwnKeysAndArgsUpToTheMostAPlanSays(RedisNodes nodes) {
        RedisClient client = RedisClient.create(nodes.node(0).uri());
        try (StatefulRedisConnection<String, String> lettuce = client.connect()) {
            int most = ScriptBatch.MOST_IN_A_PLAN_BYTE;
            List<ScriptCall> calls = List.of(
                    call(ECHO, List.of("7"), List.of("3")),
                    call(SHAPE, numbers(most, 0), numbers(most, 1)),
                    call(ECHO, List.of("9"), List.of("4", "unused")),
                    call(SHAPE, List.of("5"), numbers(2, 10)));
            List<Long> expected = List.of(7003L, most * 1000000L + most * 1000L + (most - 1) + most,
                    9004L, 1000000L + 2000L + 5 + 11);
            assertThat(run(lettuce, calls, false)).as("by EVAL").isEqualTo(expected);
            assertThat(run(lettuce, calls, true)).as("by EVALSHA, once the node knows the batch").isEqualTo(expected);
        } finally {
            client.shutdown();
        }
    }

    private static List<Long> run(StatefulRedisConnection<String, String> lettuce, List<ScriptCall> calls,
            boolean bySha) {
        AsyncCommand<String, String, BatchOutput> sent = new AsyncCommand<>(
                ScriptCommand.batch(BATCH, calls, bySha, false, new BatchOutput()));
        lettuce.dispatch(sent);
        BatchOutput replies = sent.toCompletableFuture().orTimeout(PATIENCE.toSeconds(),
                TimeUnit.SECONDS).join();
        return IntStream.range(0, calls.size()).mapToObj(i -> (Long) ScriptBatch.replyOf(replies, calls.size(), i))
                .toList();
    }

    private static ScriptCall call(Script script, List<String> keys, List<String> args) {
        return new ScriptCall(null, script, keys.toArray(String[]::new), args.toArray(String[]::new), false);
    }

    /** {@code count} numbers from {@code first}, as text. */
    private static List<String> numbers(int count, int first) {
        return IntStream.range(first, first + count).mapToObj(Integer::toString).toList();
    }
}
