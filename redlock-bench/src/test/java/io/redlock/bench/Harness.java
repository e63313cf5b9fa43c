package io.redlock.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The side-by-side run: for each in-flight level, {@code rounds} rounds, and in each round every contestant in turn
 * (A B C A B C ...), each with a warm-up and a measured window on its own fresh resources. Interleaving spreads
 * whatever else the machine does over all contestants alike.
 */
final class Harness {

    /** The in-flight level of the JIT warm-up unless told otherwise. */
    static final int JIT_IN_FLIGHT = 16;

    private final List<Contestant> contestants;
    private final Consumer<String> progress;
    private final CpuMeter cpu;
    private final int jitInFlight;

    Harness(List<Contestant> contestants, Consumer<String> progress, CpuMeter cpu) {
        this(contestants, progress, cpu, JIT_IN_FLIGHT);
    }

    /** With the JIT warm-up at {@code jitInFlight} slots. */
    Harness(List<Contestant> contestants, Consumer<String> progress, CpuMeter cpu, int jitInFlight) {
        this.contestants = List.copyOf(contestants);
        this.progress = progress;
        this.cpu = cpu;
        this.jitInFlight = jitInFlight;
    }

    /**
     * One result per contestant and level, levels in the given order, contestants in theirs; first each contestant
     * runs unmeasured for {@code jit}, so no measured window pays for compiling another contestant's code.
     */
    List<LevelResult> run(Duration jit, List<Integer> levels, int rounds, Duration warmup, Duration window) {
        if (!jit.isZero()) {
            for (Contestant contestant : contestants) {
                Window.measure(contestant, jitInFlight, "bench:" + contestant.id() + ":jit:", jit, Duration.ZERO,
                        cpu);
            }
            progress.accept("JIT warm-up: " + jit.toMillis() + " ms per contestant at " + jitInFlight + " in flight");
        }
        List<LevelResult> results = new ArrayList<>();
        for (int level : levels) {
            Map<Contestant, List<WindowResult>> windows = new LinkedHashMap<>();
            for (int round = 1; round <= rounds; round++) {
                for (Contestant contestant : contestants) {
                    String keyPrefix = "bench:" + contestant.id() + ":" + level + ":" + round + ":";
                    WindowResult result = Window.measure(contestant, level, keyPrefix, warmup, window, cpu);
                    windows.computeIfAbsent(contestant, c -> new ArrayList<>()).add(result);
                    progress.accept(String.format("in-flight %d, round %d/%d, %-26s %,10.0f pairs/s  p50 %,d µs"
                            + "  CPU/pair: client %.0f µs, Redis %.0f µs  alloc/pair %.0f B  other CPU %.0f %%%s",
                            level, round, rounds, contestant.name(), result.pairsPerSecond(),
                            result.latencies().getValueAtPercentile(50), result.clientCpuMicros(),
                            result.serverCpuMicros(), result.allocatedBytes(), 100 * result.foreignCpuShare(),
                            result.errors() == 0 ? "" : "  errors " + result.errors() + ": " + result.firstError()));
                }
            }
            windows.forEach((contestant, measured) -> results.add(summarize(contestant, level, measured)));
        }
        return results;
    }

    private static LevelResult summarize(Contestant contestant, int level, List<WindowResult> rounds) {
        Histogram merged = new Histogram(3);
        long errors = 0;
        String firstError = null;
        for (WindowResult round : rounds) {
            merged.add(round.latencies());
            errors += round.errors();
            firstError = firstError == null ? round.firstError() : firstError;
        }
        return new LevelResult(contestant.name(), contestant.id(), contestant.nodes(), level,
                median(rounds.stream().mapToDouble(WindowResult::pairsPerSecond).sorted().toArray()),
                rounds.stream().map(WindowResult::pairsPerSecond).toList(), merged.getTotalCount(), merged.getValueAtPercentile(50), merged.getValueAtPercentile(99),
                merged.getValueAtPercentile(99.9),
                median(rounds.stream().mapToDouble(WindowResult::clientCpuMicros).sorted().toArray()),
                median(rounds.stream().mapToDouble(WindowResult::serverCpuMicros).sorted().toArray()),
                median(rounds.stream().mapToDouble(WindowResult::allocatedBytes).sorted().toArray()),
                median(rounds.stream().mapToDouble(WindowResult::foreignCpuShare).sorted().toArray()),
                errors, firstError);
    }

    /** The median of sorted values: the middle one, or the mean of the two middle ones. */
    static double median(double[] sorted) {
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
