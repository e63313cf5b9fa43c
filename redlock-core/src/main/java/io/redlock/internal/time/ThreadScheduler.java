package io.redlock.internal.time;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The default {@link Scheduler}: one daemon thread, {@code redlock-scheduler-<n>}, per engine. */
public final class ThreadScheduler implements Scheduler {

    /** The prefix of this scheduler's thread name. */
    static final String THREAD_PREFIX = "redlock-scheduler-";

    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final ScheduledThreadPoolExecutor executor;
    private volatile Thread thread;

    public ThreadScheduler() {
        String name = THREAD_PREFIX + INSTANCES.incrementAndGet();
        this.executor = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread t = new Thread(runnable, name);
            t.setDaemon(true);
            thread = t;
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
    }

    @Override
    public Future<?> schedule(Runnable task, long delayNanos) {
        return executor.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
    }

    @Override
    public boolean lendsDeadlinesToIoThreads() {
        return true;
    }

    @Override
    public void shutdown(Duration wait) {
        executor.shutdownNow();
        Thread t = thread;
        if (t == null || t == Thread.currentThread()) {
            return;
        }
        try {
            t.join(Math.max(1, wait.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
