package io.redlock.internal.node;

import io.lettuce.core.resource.ThreadFactoryProvider;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.redlock.internal.time.Deadline;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of the Lettuce resources an engine owns (its event loops and timer), named
 * {@code redlock-<instance>-<pool>-<n>} and remembered, so that closing the engine can wait until they have ended.
 */
final class OwnedThreads implements ThreadFactoryProvider {

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final String prefix = "redlock-" + INSTANCES.incrementAndGet() + "-";
    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    @Override
    public ThreadFactory getThreadFactory(String poolName) {
        AtomicInteger count = new AtomicInteger();
        String name = prefix + poolName.replace("lettuce-", "") + "-";
        return runnable -> {
            Thread thread = new FastThreadLocalThread(runnable, name + count.incrementAndGet());
            thread.setDaemon(true);
            threads.add(thread);
            return thread;
        };
    }

    /** Waits, at most {@code wait} in all, until every thread made here has ended (not for the calling thread). */
    void awaitEnded(Duration wait) {
        Deadline deadline = Deadline.after(io.redlock.Ticker.system(), wait);
        for (Thread thread : threads) {
            long left = deadline.nanosLeft();
            if (thread == Thread.currentThread() || left <= 0) {
                continue;
            }
            try {
                thread.join(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
