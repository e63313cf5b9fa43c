package io.redlock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

/**
 * The blocking counterpart of {@link PairLoop}: one platform thread per slot calls {@link Contestant#pairBlocking} in
 * a loop for as long as {@code another} says so, as application threads call a blocking lock API.
 */
final class ThreadLoop {

    private ThreadLoop() {
    }

    /** Runs the slots until {@code another} returns false and waits for every thread, at most {@code drainLimit}. */
    static void run(Contestant contestant, List<String> resources, BooleanSupplier another, PairLoop.Sink sink,
            Duration drainLimit) {
        AtomicReference<Throwable> broken = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>(resources.size());
        for (int i = 0; i < resources.size(); i++) {
            String resource = resources.get(i);
            int slot = i;
            Thread thread = new Thread(() -> loop(contestant, resource, slot, another, sink, broken),
                    "bench-caller-" + i);
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        long deadline = System.nanoTime() + drainLimit.toNanos();
        try {
            for (Thread thread : threads) {
                thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (thread.isAlive()) {
                    threads.forEach(Thread::interrupt);
                    throw new IllegalStateException(contestant.name() + ": callers still busy " + drainLimit
                            + " after the end");
                }
            }
        } catch (InterruptedException e) {
            threads.forEach(Thread::interrupt);
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (broken.get() != null) {
            throw new IllegalStateException(contestant.name() + ": a caller broke", broken.get());
        }
    }

    private static void loop(Contestant contestant, String resource, int slot, BooleanSupplier another,
            PairLoop.Sink sink, AtomicReference<Throwable> broken) {
        try {
            while (true) {
                try {
                    contestant.beforePair(slot);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                if (!another.getAsBoolean()) {
                    return;
                }
                long start = System.nanoTime();
                try {
                    contestant.pairBlocking(resource, slot);
                    sink.completed(start, System.nanoTime());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } catch (Exception e) {
                    sink.failed(e);
                }
            }
        } catch (RuntimeException | Error e) {
            broken.compareAndSet(null, e);
        } finally {
            CpuMeter.threadEnds();
        }
    }
}
