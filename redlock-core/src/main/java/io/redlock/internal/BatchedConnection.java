package io.redlock.internal;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * One node's connection whose commands are coalesced: every command sent while an I/O thread handles a batch of
 * replies goes out in one write at the end of that batch, so N lock operations cost one system call per node instead
 * of N, and the node reads them in one go and answers in one write.
 *
 * <p>Lettuce's auto-flush is off on the connection. A command sent while a reply is being handed over on an I/O thread
 * ({@link #completeAsReply}: the next round of an acquisition, a release after an acquire, the next operation of a
 * caller that chains on replies) queues one flush task on that event loop if none is queued yet; the task runs once
 * the loop has finished the replies it is handling. A command sent from anywhere else is flushed at once, so a lone
 * caller pays no extra latency, and a caller that blocks on a thread of its own Netty event loop is not left waiting
 * for a flush its own thread would have to run. Order on the connection is the order of {@link #send}: the buffer is
 * a FIFO.
 *
 * <p>Thread-safe.
 */
final class BatchedConnection {

    /** How deep this thread is inside {@link #completeAsReply} (reply hand-overs can nest). */
    private static final ThreadLocal<int[]> REPLY_DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    private final StatefulRedisConnection<String, String> connection;
    private final RedisAsyncCommands<String, String> async;
    private final AtomicBoolean flushQueued = new AtomicBoolean();
    private final Runnable flush = this::flushNow;

    BatchedConnection(StatefulRedisConnection<String, String> connection) {
        this.connection = connection;
        this.async = connection.async();
        connection.setAutoFlushCommands(false);
    }

    StatefulRedisConnection<String, String> connection() {
        return connection;
    }

    /** Queues one command and makes sure it is flushed; a command that cannot be queued yields a failed stage. */
    <T> CompletionStage<T> send(Function<RedisAsyncCommands<String, String>, ? extends CompletionStage<T>> command) {
        CompletionStage<T> reply;
        try {
            reply = command.apply(async);
        } catch (RuntimeException e) {
            reply = CompletableFuture.failedFuture(e);
        }
        flushSoon();
        return reply;
    }

    /**
     * Completes {@code reply} with a node's answer; commands that its continuations send are written together once
     * the I/O thread has handled the replies at hand.
     */
    static <T> void completeAsReply(CompletableFuture<T> reply, T value, Throwable failure) {
        int[] depth = REPLY_DEPTH.get();
        depth[0]++;
        try {
            if (failure == null) {
                reply.complete(value);
            } else {
                reply.completeExceptionally(failure);
            }
        } finally {
            depth[0]--;
        }
    }

    private void flushSoon() {
        EventExecutor loop = REPLY_DEPTH.get()[0] > 0 ? ThreadExecutorMap.currentExecutor() : null;
        if (loop == null) {
            connection.flushCommands();
            return;
        }
        if (flushQueued.compareAndSet(false, true)) {
            try {
                loop.execute(flush);
            } catch (RejectedExecutionException shuttingDown) {
                flushNow();
            }
        }
    }

    /** Clears the flag before flushing: a command queued after the clear schedules its own flush. */
    private void flushNow() {
        flushQueued.set(false);
        connection.flushCommands();
    }

    void closeAsync() {
        connection.closeAsync();
    }

    void close() {
        connection.close();
    }
}
