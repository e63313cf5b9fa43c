package io.redlock.bench;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.HdrHistogram.Recorder;

/**
 * One contestant at one in-flight level (slots of pairs in flight, or blocking caller threads): the slots run without a break through a warm-up and then the measured
 * window; a pair counts if it completed inside the window. Nothing starts after the window.
 */
final class Window {

    private static final Duration DRAIN_LIMIT = Duration.ofSeconds(30);

    private Window() {
    }

    /** Runs {@code inFlight} slots on the resources {@code keyPrefix + slot}. */
    static WindowResult measure(Contestant contestant, int inFlight, String keyPrefix, Duration warmup,
            Duration window, CpuMeter cpu) {
        List<String> resources = IntStream.range(0, inFlight).mapToObj(slot -> keyPrefix + slot).toList();
        contestant.startWindow(keyPrefix, inFlight);
        Recorder latencies = new Recorder(3);
        LongAdder errors = new LongAdder();
        AtomicReference<String> firstError = new AtomicReference<>();
        long from = System.nanoTime() + warmup.toNanos();
        long to = from + window.toNanos();
        AtomicReference<CpuMeter.Sample> cpuFrom = new AtomicReference<>();
        AtomicReference<CpuMeter.Sample> cpuTo = new AtomicReference<>();
        PairLoop.Sink sink = new PairLoop.Sink() {
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
        };
        BooleanSupplier another = () -> sampleAtEdges(cpu, from, to, cpuFrom, cpuTo);
        if (contestant.blocking()) {
            ThreadLoop.run(contestant, resources, another, sink, DRAIN_LIMIT);
        } else {
            PairLoop.run(contestant, resources, another, sink, DRAIN_LIMIT);
        }
        var histogram = latencies.getIntervalHistogram();
        double seconds = window.toNanos() / 1e9;
        long pairs = histogram.getTotalCount();
        CpuMeter.Sample start = cpuFrom.get();
        CpuMeter.Sample end = cpuTo.get();
        double clientMicros = start == null || end == null || pairs == 0 ? Double.NaN
                : (end.clientNanos() - start.clientNanos()) / 1e3 / pairs;
        double serverMicros = start == null || end == null || pairs == 0 || end.serverNanos() == 0 ? Double.NaN
                : (end.serverNanos() - start.serverNanos()) / 1e3 / pairs;
        double allocated = start == null || end == null || pairs == 0 ? Double.NaN
                : (double) (end.allocatedBytes() - start.allocatedBytes()) / pairs;
        double foreign = start == null || end == null || end.machineNanos() == 0 ? Double.NaN
                : ((end.machineNanos() - start.machineNanos()) - (end.clientNanos() - start.clientNanos())
                        - (end.serverNanos() - start.serverNanos())) / (double) window.toNanos();
        return new WindowResult(histogram, pairs / seconds, clientMicros, serverMicros, allocated,
                Math.max(0, foreign), errors.sum(),
                firstError.get());
    }

    /**
     * Whether another pair may start (before {@code to}); takes the CPU samples at the start and the end of the
     * window, once each, from whichever thread asks first after the edge.
     */
    private static boolean sampleAtEdges(CpuMeter cpu, long from, long to, AtomicReference<CpuMeter.Sample> cpuFrom,
            AtomicReference<CpuMeter.Sample> cpuTo) {
        long now = System.nanoTime();
        if (now >= from && cpuFrom.get() == null) {
            cpuFrom.compareAndSet(null, cpu.sample());
        }
        if (now >= to) {
            if (cpuTo.get() == null) {
                cpuTo.compareAndSet(null, cpu.sample());
            }
            return false;
        }
        return true;
    }
}
