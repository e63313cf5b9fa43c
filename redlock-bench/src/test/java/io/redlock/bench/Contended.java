package io.redlock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;

/**
 * Several clients, one resource, {@value #WORK_MILLIS} ms of work per hold: each client thread loops acquire (TTL
 * 2 s, waiting up to 5 s) → work → release. The lock can change hands at most 1000 / {@value #WORK_MILLIS} times a
 * second; how close a contestant gets shows what its waiting and handoff cost. Counted after a warm-up.
 */
final class Contended {

    static final long WORK_MILLIS = 50;
    private static final Duration TTL = Duration.ofSeconds(2);
    private static final Duration MAX_WAIT = Duration.ofSeconds(5);

    private Contended() {
    }

    static ContendedResult run(String contestant, List<LockClient> clients, String resource, Duration warmup,
            Duration window) {
        Recorder waits = new Recorder(3);
        LongAdder timeouts = new LongAdder();
        long from = System.nanoTime() + warmup.toNanos();
        long to = from + window.toNanos();
        ExecutorService threads = Executors.newFixedThreadPool(clients.size());
        try {
            List<Future<?>> loops = new ArrayList<>();
            for (LockClient client : clients) {
                loops.add(threads.submit(() -> loop(client, resource, from, to, waits, timeouts)));
            }
            for (Future<?> loop : loops) {
                loop.get(to - System.nanoTime() + MAX_WAIT.toNanos() + TTL.toNanos(), TimeUnit.NANOSECONDS);
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException(contestant + ": a contended client failed", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(contestant + ": a contended client did not stop", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            threads.shutdownNow();
        }
        var histogram = waits.getIntervalHistogram();
        long acquisitions = histogram.getTotalCount();
        return new ContendedResult(contestant, clients.size(), acquisitions, acquisitions / (window.toNanos() / 1e9),
                1000.0 / WORK_MILLIS, histogram.getValueAtPercentile(50), histogram.getValueAtPercentile(99),
                timeouts.sum());
    }

    /** Acquire → work → release until {@code to}; acquisitions inside [from, to] are recorded. */
    private static Void loop(LockClient client, String resource, long from, long to, Recorder waits,
            LongAdder timeouts) throws InterruptedException {
        while (System.nanoTime() < to) {
            long start = System.nanoTime();
            boolean acquired = client.acquire(resource, TTL, MAX_WAIT);
            long got = System.nanoTime();
            boolean counted = got >= from && got <= to;
            if (!acquired) {
                if (counted) {
                    timeouts.increment();
                }
                continue;
            }
            if (counted) {
                waits.recordValue(Math.max(1, (got - start) / 1_000));
            }
            try {
                Thread.sleep(WORK_MILLIS);
            } finally {
                client.release();
            }
        }
        return null;
    }
}
