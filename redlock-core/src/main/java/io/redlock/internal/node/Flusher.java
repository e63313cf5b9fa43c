package io.redlock.internal.node;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * When the node connections of one {@link NodeSet} write what they have queued: once per turn of an I/O event loop,
 * so the commands of many lock operations to one node share one {@code write}, and the node reads them in one go and
 * answers in one write.
 *
 * <p>A command queued on an I/O thread that carries the nodes' replies — while a reply is being handed over
 * ({@link #completeAsReply}: the next round of an acquisition, the release after an acquire, the next operation of a
 * caller that chains on replies) or not (a reply made room in the window of paced deletes) — is written by one task
 * queued on that event loop, once it has handled the replies at hand. Written at once instead, it could overtake the
 * write of a command another thread flushed earlier, which waits on that loop as a task: order on a connection is
 * the order flushes were asked for. A command queued on any other thread — a caller blocked on the lock API — is
 * written by the same kind of task on the I/O loop that carries the nodes' replies: Netty would hand the write to
 * that loop anyway, and every caller that queues a command before the task runs shares its writes. Until that loop
 * is known (no reply seen yet), or on a thread of some other event loop (which may be about to block on the reply:
 * the task would wait for its own thread), the connection is flushed at once.
 *
 * <p>Thread-safe.
 */
final class Flusher implements Runnable {

    /** How deep this thread is inside {@link #completeAsReply} (reply hand-overs can nest). */
    private static final ThreadLocal<int[]> REPLY_DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    private final Queue<BatchedConnection> waiting = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean queued = new AtomicBoolean();
    /** The event loop the nodes' replies were last handled on; null before the first reply. */
    private volatile EventExecutor ioLoop;
    /** Every event loop the nodes' replies were handled on. */
    private final java.util.Set<EventExecutor> ioLoops = new java.util.concurrent.CopyOnWriteArraySet<>();

    /**
     * Completes {@code reply} with a node's answer; commands that its continuations queue are written together once
     * the I/O thread has handled the replies at hand.
     */
    <T> void completeAsReply(CompletableFuture<T> reply, T value, Throwable failure) {
        noteLoop();
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

    /** Remembers the event loop of the calling I/O thread, where replies arrive. */
    void noteLoop() {
        EventExecutor current = ThreadExecutorMap.currentExecutor();
        if (current != null && current != ioLoop) {
            ioLoop = current;
            ioLoops.add(current);
        }
    }

    /** The calling thread's event loop if it is one the nodes' replies come on, else null. */
    EventExecutor currentIoLoop() {
        EventExecutor current = ThreadExecutorMap.currentExecutor();
        return current != null && (current == ioLoop || ioLoops.contains(current)) ? current : null;
    }

    /** {@code connection} has commands queued and no flush pending: it is written in this turn, or at once. */
    void flushSoon(BatchedConnection connection) {
        EventExecutor loop = loopForThisThread();
        if (loop == null) {
            connection.flushNow();
            return;
        }
        waiting.add(connection);
        if (queued.compareAndSet(false, true)) {
            try {
                loop.execute(this);
            } catch (RejectedExecutionException shuttingDown) {
                run();
            }
        }
    }

    private EventExecutor loopForThisThread() {
        EventExecutor current = ThreadExecutorMap.currentExecutor();
        if (current != null) {
            return REPLY_DEPTH.get()[0] > 0 || ioLoops.contains(current) ? current : null;
        }
        return ioLoop;
    }

    /** Clears the flag before writing: a connection queued after the clear queues another run. */
    @Override
    public void run() {
        queued.set(false);
        BatchedConnection connection;
        while ((connection = waiting.poll()) != null) {
            try {
                connection.flushNow();
            } catch (RuntimeException closed) {
                // a connection closed meanwhile: its commands fail with it; the others are still written
            }
        }
    }
}
