package io.redlock.histories;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A thread of its own that makes the calls of one simulated application thread, one at a time. Unlike a pool thread,
 * it keeps its interrupt flag between calls: an interrupt that arrives while it is idle (a watchdog telling it its
 * lease was lost) is still set when its next call runs, as it would be in the critical section of a real thread.
 */
final class Actor implements AutoCloseable {

    /** What one call did: its value or what it threw, whether the thread was interrupted after it, and when. */
    record Result(Object value, Throwable thrown, boolean interruptedAfter, long started, long ended) {

        boolean threw(Class<? extends Throwable> type) {
            return type.isInstance(thrown);
        }

        @Override
        public String toString() {
            return (thrown == null ? "returned " + value : "threw " + thrown)
                    + (interruptedAfter ? ", interrupted" : "");
        }
    }

    private final String name;
    private final LinkedBlockingQueue<FutureTask<Result>> calls = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean closed;

    Actor(String name) {
        this.name = name;
        this.thread = new Thread(this::loop, name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    String name() {
        return name;
    }

    /**
     * Runs {@code call} on this thread, interrupting the thread first if {@code interruptFirst}, and waits for it
     * (at most {@code within}: a call the model says returns must return).
     */
    Result call(Callable<?> call, boolean interruptFirst, Duration within) {
        FutureTask<Result> task = new FutureTask<>(() -> {
            if (interruptFirst) {
                Thread.currentThread().interrupt();
            }
            long started = System.nanoTime();
            Object value = null;
            Throwable thrown = null;
            try {
                value = call.call();
            } catch (Exception | AssertionError e) {
                thrown = e;
            }
            return new Result(value, thrown, Thread.currentThread().isInterrupted(), started, System.nanoTime());
        });
        calls.add(task);
        try {
            return task.get(within.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError(name + ": the call did not return within " + within);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    private void loop() {
        boolean interrupted = false;
        while (!closed) {
            FutureTask<Result> next;
            try {
                next = calls.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                interrupted = true; // kept for the next call, as a thread busy in its critical section would keep it
                continue;
            }
            if (next == null) {
                continue;
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
                interrupted = false;
            }
            next.run();
            interrupted = Thread.interrupted();
        }
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.join(Duration.ofSeconds(10).toMillis());
    }
}
