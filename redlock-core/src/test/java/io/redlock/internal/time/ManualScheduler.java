package io.redlock.internal.time;

import io.redlock.FakeTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;

/**
 * A {@link Scheduler} that runs nothing by itself: tasks run when the test moves its {@link FakeTicker} with
 * {@link #advance(Duration)} or calls {@link #runDue()}, on the test's thread. Time-based logic is then tested
 * without sleeping.
 */
public final class ManualScheduler implements Scheduler {

    private final FakeTicker ticker;
    private final PriorityQueue<Task> tasks = new PriorityQueue<>(
            Comparator.comparingLong((Task t) -> t.due).thenComparingLong(t -> t.sequence));
    private long sequence;
    private boolean shutdown;

    public ManualScheduler(FakeTicker ticker) {
        this.ticker = ticker;
    }

    @Override
    public synchronized Future<?> schedule(Runnable task, long delayNanos) {
        if (shutdown) {
            throw new RejectedExecutionException("shut down");
        }
        Task t = new Task(task, ticker.read() + Math.max(0, delayNanos), sequence++);
        tasks.add(t);
        return t;
    }

    @Override
    public synchronized void shutdown(Duration wait) {
        shutdown = true;
        tasks.forEach(t -> t.cancel(false));
        tasks.clear();
    }

    /** Runs, in order, every task due by now (also ones they schedule for now); returns how many ran. */
    public int runDue() {
        int ran = 0;
        Task next;
        while ((next = takeDue(ticker.read())) != null) {
            run(next);
            ran++;
        }
        return ran;
    }

    /**
     * Moves the ticker forward by {@code duration}, stopping at each task's due time on the way to run it (so a task
     * sees the time it was due at); returns how many tasks ran.
     */
    public int advance(Duration duration) {
        long end = ticker.read() + duration.toNanos();
        int ran = 0;
        while (true) {
            Task next;
            synchronized (this) {
                next = tasks.peek();
                while (next != null && next.isCancelled()) {
                    tasks.poll();
                    next = tasks.peek();
                }
                if (next == null || next.due - end > 0) {
                    break;
                }
                tasks.poll();
            }
            long step = next.due - ticker.read();
            if (step > 0) {
                ticker.advance(Duration.ofNanos(step));
            }
            run(next);
            ran++;
        }
        long rest = end - ticker.read();
        if (rest > 0) {
            ticker.advance(Duration.ofNanos(rest));
        }
        return ran;
    }

    /** The delays from now of the tasks still pending (not cancelled), soonest first. */
    public synchronized List<Duration> pending() {
        List<Task> live = new ArrayList<>(tasks);
        live.removeIf(Future::isCancelled);
        live.sort(tasks.comparator());
        long now = ticker.read();
        return live.stream().map(t -> Duration.ofNanos(t.due - now)).toList();
    }

    /** Runs a task; one that threw fails the test. */
    private static void run(Task task) {
        task.run();
        try {
            task.get();
        } catch (java.util.concurrent.CancellationException cancelled) {
            // cancelled while it ran
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new AssertionError("a scheduled task threw", e.getCause());
        }
    }

    private synchronized Task takeDue(long now) {
        while (true) {
            Task next = tasks.peek();
            if (next == null || next.due - now > 0) {
                return null;
            }
            tasks.poll();
            if (!next.isCancelled()) {
                return next;
            }
        }
    }

    private static final class Task extends FutureTask<Void> {
        final long due;
        final long sequence;

        Task(Runnable runnable, long due, long sequence) {
            super(runnable, null);
            this.due = due;
            this.sequence = sequence;
        }
    }
}
