package io.redlock.internal.time;

import io.redlock.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watchdogs' timers, grouped by tick: every timer due in one tick runs in one task of the engine's
 * {@link Scheduler}, so many kept-alive leases cost one scheduled task per tick instead of one each, and the
 * extensions due together go out together (each node gets them in one batched script call).
 *
 * <p>{@link #notBefore} rounds a due time up to the next tick boundary (up to one tick late, never early: extensions,
 * whose pacing must hold); {@link #notAfter} rounds it down (up to one tick early, never late: the checks of expiry
 * and maximum hold time, which read the time again and come back for the rest). A timer due within one tick is
 * scheduled on its own, exactly. A cancelled timer lets go of its task at once.
 */
public final class TimerWheel {

    /** The tick. */
    static final long TICK_NANOS = Scheduler.WATCHDOG_TICK.toNanos();
    /** A tick's list is compacted when more than half of at least this many timers were cancelled. */
    private static final int COMPACT_AT = 64;
    private static final Logger log = LoggerFactory.getLogger(TimerWheel.class);

    private final Scheduler scheduler;
    private final Ticker ticker;
    private final ConcurrentHashMap<Long, Bucket> buckets = new ConcurrentHashMap<>();

    public TimerWheel(Scheduler scheduler, Ticker ticker) {
        this.scheduler = scheduler;
        this.ticker = ticker;
    }

    /**
     * Runs {@code task} at the first tick boundary at or after {@code delayNanos} from now.
     *
     * @throws RejectedExecutionException once the scheduler was shut down
     */
    public Timer notBefore(Runnable task, long delayNanos) {
        long now = ticker.read();
        return add(task, now, delayNanos, Math.floorDiv(now + delayNanos + TICK_NANOS - 1, TICK_NANOS));
    }

    /**
     * Runs {@code task} at the last tick boundary at or before {@code delayNanos} from now.
     *
     * @throws RejectedExecutionException once the scheduler was shut down
     */
    public Timer notAfter(Runnable task, long delayNanos) {
        long now = ticker.read();
        return add(task, now, delayNanos, Math.floorDiv(now + delayNanos, TICK_NANOS));
    }

    /** How many ticks have timers waiting. */
    int pendingTicks() {
        return buckets.size();
    }

    private Timer add(Runnable task, long now, long delayNanos, long tick) {
        Timer timer = new Timer(task);
        if (delayNanos < TICK_NANOS) {
            timer.future = scheduler.schedule(timer::run, delayNanos);
            return timer;
        }
        while (true) {
            Bucket bucket = buckets.computeIfAbsent(tick, Bucket::new);
            if (bucket.add(timer)) {
                bucket.scheduleOnce(tick * TICK_NANOS - now);
                return timer;
            }
            buckets.remove(tick, bucket); // it ran meanwhile: a new one for the same tick runs at once
        }
    }

    /** One timer: cancel it to drop its task (best effort: a task that is already starting still runs). */
    public static final class Timer {
        private volatile Runnable task;
        private volatile Bucket bucket;
        private volatile Future<?> future;

        private Timer(Runnable task) {
            this.task = task;
        }

        /** Drops the task. */
        public void cancel() {
            Bucket in = bucket;
            if (in != null) {
                in.cancel(this);
            } else {
                task = null;
            }
            Future<?> own = future;
            if (own != null) {
                own.cancel(false);
            }
        }

        private void run() {
            Runnable due = task;
            task = null;
            if (due != null) {
                try {
                    due.run();
                } catch (RuntimeException e) {
                    log.warn("a watchdog timer failed", e);
                }
            }
        }
    }

    /** The timers of one tick. */
    private final class Bucket implements Runnable {
        private final long tick;
        private List<Timer> timers = new ArrayList<>();
        private int cancelled;
        private boolean scheduled;

        Bucket(long tick) {
            this.tick = tick;
        }

        /** False if the bucket already ran. */
        synchronized boolean add(Timer timer) {
            if (timers == null) {
                return false;
            }
            timer.bucket = this;
            timers.add(timer);
            return true;
        }

        public synchronized void cancel(Timer timer) {
            boolean live = timer.task != null;
            timer.task = null;
            if (timers == null || !live) {
                return;
            }
            cancelled++;
            if (timers.size() >= COMPACT_AT && cancelled * 2 > timers.size()) {
                timers.removeIf(t -> t.task == null);
                cancelled = 0;
            }
        }

        void scheduleOnce(long delayNanos) {
            synchronized (this) {
                if (scheduled) {
                    return;
                }
                scheduled = true;
            }
            try {
                scheduler.schedule(this, delayNanos);
            } catch (RejectedExecutionException closing) {
                buckets.remove(tick, this);
                throw closing;
            }
        }

        @Override
        public void run() {
            buckets.remove(tick, this);
            List<Timer> due;
            synchronized (this) {
                due = timers;
                timers = null;
            }
            for (Timer timer : due) {
                timer.bucket = null;
                timer.run();
            }
        }
    }
}
