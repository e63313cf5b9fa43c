package io.redlock.bench;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * Does a long run leak? Runs pairs in batches of {@code every}, {@code inFlight} at a time on the same resources,
 * and after each batch samples the used heap after {@link System#gc()}.
 */
final class HeapCheck {

    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(60);

    private HeapCheck() {
    }

    static HeapResult run(Contestant contestant, BenchConfig.HeapSettings settings, Consumer<String> progress) {
        List<String> resources = IntStream.range(0, settings.inFlight())
                .mapToObj(slot -> "heap:" + contestant.id() + ":" + slot).toList();
        LongAdder errors = new LongAdder();
        AtomicReference<String> firstError = new AtomicReference<>();
        PairLoop.Sink sink = new PairLoop.Sink() {
            @Override
            public void completed(long startNanos, long endNanos) {
                // only the count of errors and the heap matter here
            }

            @Override
            public void failed(Throwable error) {
                errors.increment();
                firstError.compareAndSet(null, String.valueOf(error));
            }
        };
        List<Long> samples = new ArrayList<>();
        for (long done = 0; done < settings.pairs(); ) {
            AtomicLong left = new AtomicLong(Math.min(settings.every(), settings.pairs() - done));
            done += left.get();
            PairLoop.run(contestant, resources, () -> left.getAndDecrement() > 0, sink, DRAIN_LIMIT);
            samples.add(usedHeapAfterGc());
            progress.accept(String.format("%,d pairs: used heap %,d KiB, errors %d",
                    done, samples.get(samples.size() - 1) >> 10, errors.sum()));
        }
        return new HeapResult(contestant.name(), settings.pairs(), settings.every(), settings.inFlight(), samples,
                settings.boundBytes(), errors.sum(), firstError.get());
    }

    private static long usedHeapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
