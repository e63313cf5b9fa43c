package io.redlock.internal.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Deletes are paced on a node's connection: a burst of them holds up what is queued after it (an extension round) by
 * one window of deletes at most. Property: of the deletes queued before an extension, at most
 * {@link BatchedConnection#PACED_WINDOW} are answered before it; every delete is answered.
 */
@WithRedisNodes(1)
class PacedDeletesIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    /** A release and an extension as the transport sees them: scripts of one batch, answering 0 for a missing key. */
    private static final Script DELETE = Script.of("delete", "return redis.call('del', KEYS[1])");
    private static final Script EXPIRE = Script.of("expire", "return redis.call('pexpire', KEYS[1], ARGV[2])");
    private static final ScriptBatch BATCH = ScriptBatch.of(List.of(DELETE, EXPIRE));

    @Test
    void anExtensionQueuedBehindABurstOfDeletesWaitsForOneWindowOfThemAtMost(RedisNodes nodes) {
        RedisServer node = nodes.node(0);
        RedisClient client = RedisClient.create(node.uri());
        try (StatefulRedisConnection<String, String> lettuce = client.connect()) {
            Flusher flusher = new Flusher();
            BatchedConnection connection = TestConnections.batched(lettuce, flusher, BATCH);
            for (Script script : BATCH.loaded()) { // as a node client does on connecting: no NOSCRIPT round trip
                CompletableFuture<String> loaded = new CompletableFuture<>();
                connection.send(redis -> redis.scriptLoad(script.text()), loaded);
                assertThat(loaded).succeedsWithin(PATIENCE);
            }
            int burst = BatchedConnection.PACED_WINDOW * 4;
            AtomicInteger deletesAnswered = new AtomicInteger();
            List<CompletableFuture<Long>> deletes = new ArrayList<>();
            ScriptCall extension = new ScriptCall(connection, EXPIRE, new String[] {"kept"}, new String[] {"v", "5000"},
                    false);
            CompletableFuture<Integer> deletesBeforeExtension = extension.thenApply(reply -> deletesAnswered.get());

            node.pause(); // nothing is answered while the burst and the extension are queued
            try {
                for (int i = 0; i < burst; i++) {
                    ScriptCall delete = new ScriptCall(connection, DELETE, new String[] {"burst:" + i, "burst:" + i
                            + ":waiters"}, new String[] {"v" + i, "r:v" + i, "0", "burst:" + i + ":released"}, true);
                    delete.thenRun(deletesAnswered::incrementAndGet);
                    deletes.add(delete);
                    connection.eval(delete);
                }
                connection.eval(extension);
            } finally {
                node.resume();
            }

            assertThat(extension).succeedsWithin(PATIENCE).isEqualTo(0L);
            assertThat(deletesBeforeExtension.join()).as("deletes answered before the extension")
                    .isLessThanOrEqualTo(BatchedConnection.PACED_WINDOW);
            assertThat(deletes).allSatisfy(delete -> assertThat(delete).succeedsWithin(PATIENCE).isEqualTo(0L));
        } finally {
            client.shutdown();
        }
    }
}
