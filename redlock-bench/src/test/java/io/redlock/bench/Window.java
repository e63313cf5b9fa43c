package io.redlock.bench;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;
import org.HdrHistogram.Recorder;

/**
 * One contestant at one in-flight level: the slots run without a break through a warm-up and then the measured
 * window; a pair counts if it completed inside the window. Nothing starts after the window.
 */
final class Window {

    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(30);

    private Window() {
    }

    /** Runs {@code inFlight} slots on the resources {@code keyPrefix + slot}. */
    static WindowResult measure(Contestant contestant, int inFlight, String keyPrefix, Duration warmup,
            Duration window) {
        List<String> resources = IntStream.range(0, inFlight).mapToObj(slot -> keyPrefix + slot).toList();
        Recorder latencies = new Recorder(3);
        LongAdder errors = new LongAdder();
        AtomicReference<String> firstError = new AtomicReference<>();
        long from = System.nanoTime() + warmup.toNanos();
        long to = from + window.toNanos();
        PairLoop.run(contestant, resources, () -> System.nanoTime() < to, new PairLoop.Sink() {
            @Override
            public void completed(long startNanos, long endNanos) {
                if (endNanos >= from && endNanos <= to) {
                    latencies.recordValue(Math.max(1, (endNanos - startNanos) / 1_000));
                }
            }

            @Override
            public void failed(Throwable error) {
                errors.increment();
                firstError.compareAndSet(null, String.valueOf(error));
            }
        }, DRAIN_LIMIT);
        var histogram = latencies.getIntervalHistogram();
        double seconds = window.toNanos() / 1e9;
        return new WindowResult(histogram, histogram.getTotalCount() / seconds, errors.sum(), firstError.get());
    }
}
