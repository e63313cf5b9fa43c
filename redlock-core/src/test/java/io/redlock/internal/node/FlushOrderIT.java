package io.redlock.internal.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Commands reach a node in the order their flushes were asked for. Another thread's flush hands its write to the I/O
 * loop as a task; a flush asked for on that loop later — outside a reply hand-over too, as when a reply makes room
 * in the window of paced deletes — must not be written before that task runs. Property: a flush asked for on the
 * loop that carries a node's replies runs behind the tasks already queued on that loop.
 */
@WithRedisNodes(1)
class FlushOrderIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @Test
    void aFlushAskedForOnTheReplyLoopRunsBehindTheTasksAlreadyQueuedThere(RedisNodes nodes) {
        RedisClient client = RedisClient.create(nodes.node(0).uri());
        try (StatefulRedisConnection<String, String> lettuce = client.connect()) {
            Flusher flusher = new Flusher();
            BatchedConnection connection = TestConnections.batched(lettuce, flusher, ScriptBatch.of(List.of()));
            CompletableFuture<String> first = new CompletableFuture<>();
            CompletableFuture<EventExecutor> replyLoop = first.thenApply(pong -> ThreadExecutorMap.currentExecutor());
            connection.send(redis -> redis.ping(), first);
            EventExecutor loop = replyLoop.join();
            assertThat(loop).as("the loop the reply was handed over on").isNotNull();

            List<String> order = new CopyOnWriteArrayList<>();
            CompletableFuture<String> second = new CompletableFuture<>();
            loop.execute(() -> {
                loop.execute(() -> order.add("task queued before")); // as another thread's write waits there
                connection.send(redis -> {
                    order.add("flushed");
                    return redis.ping();
                }, second);
            });

            assertThat(second).succeedsWithin(PATIENCE);
            assertThat(order).containsExactly("task queued before", "flushed");
        } finally {
            client.shutdown();
        }
    }
}
