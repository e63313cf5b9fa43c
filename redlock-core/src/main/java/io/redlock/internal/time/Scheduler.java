package io.redlock.internal.time;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

/**
 * Runs the engine's timed work: round deadlines, retry delays, watchdog checks and clean-up retries. One per engine,
 * injected (like Caffeine's {@code Scheduler}) so tests can move time by hand instead of sleeping.
 */
public interface Scheduler {

    /**
     * The watchdogs' timers are grouped in ticks of this length, one task of the scheduler per tick
     * ({@link TimerWheel}): an extension runs up to one tick after it is due, a check of expiry or maximum hold up to
     * one tick before (then it reads the time again).
     */
    Duration WATCHDOG_TICK = Duration.ofMillis(10);

    /**
     * Runs {@code task} once, {@code delayNanos} from now (at once if not positive); cancel the returned future to
     * drop it.
     *
     * @throws RejectedExecutionException once {@link #shutdown(Duration)} was called
     */
    Future<?> schedule(Runnable task, long delayNanos);

    /**
     * Whether a round's deadline (a cheap task that never blocks) may be kept by the node set's I/O event loop that
     * started the round instead of by this scheduler: one thread woken less per round. The production scheduler says
     * yes; a test scheduler that moves time by hand says no, and keeps every deadline.
     */
    default boolean lendsDeadlinesToIoThreads() {
        return false;
    }

    /**
     * Drops every pending task, accepts no new one, and waits at most {@code wait} for a running task (and the thread
     * that ran it) to end. Called from a task it returns at once.
     */
    void shutdown(Duration wait);
}
