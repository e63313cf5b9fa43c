package io.redlock.bench;

import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

/** The results as tables: side by side (with ratios to the bare-Lettuce baseline), contended, heap. */
final class Tables {

    private Tables() {
    }

    static TextTable sideBySide(List<LevelResult> results) {
        List<List<String>> rows = results.stream().map(r -> {
            Optional<LevelResult> base = results.stream()
                    .filter(b -> b.id().equals(Contestants.BASELINE) && b.inFlight() == r.inFlight()).findFirst();
            return List.of(r.contestant(), Integer.toString(r.nodes()), Integer.toString(r.inFlight()),
                    String.format("%,.0f", r.pairsPerSecond()), micros(r.p50Micros()), micros(r.p99Micros()),
                    micros(r.p999Micros()),
                    base.map(b -> ratio(r.pairsPerSecond(), b.pairsPerSecond())).orElse("-"),
                    base.map(b -> ratio(r.p50Micros(), b.p50Micros())).orElse("-"),
                    whole(r.clientCpuMicros()), whole(r.serverCpuMicros()), whole(r.allocatedBytes()),
                    whole(100 * r.foreignCpuShare()), Long.toString(r.errors()));
        }).toList();
        return new TextTable(List.of("contestant", "nodes", "in-flight", "pairs/s", "p50 µs", "p99 µs", "p99.9 µs",
                "pairs/s vs Lettuce", "p50 vs Lettuce", "client CPU µs/pair", "Redis CPU µs/pair", "client alloc B/pair",
                "other CPU % of a core", "errors"), rows);
    }

    /**
     * The kinds of lock: pairs per second, median of the rounds (min–max), and round by round as a ratio to the
     * baseline (redlock-java's plain lock on the fewest nodes) and to Redisson's equivalent of the same kind, each
     * measured in the same round: median (min–max).
     */
    static TextTable kinds(List<Kinds.Result> results) {
        Optional<Kinds.Result> baseline = results.stream()
                .filter(r -> r.kind() == Kind.LOCK && r.library().equals("redlock-java"))
                .min(java.util.Comparator.comparingInt(r -> r.level().nodes()));
        List<List<String>> rows = results.stream().map(r -> {
            LevelResult level = r.level();
            Optional<Kinds.Result> redisson = results.stream()
                    .filter(o -> o.kind() == r.kind() && o.library().equals("Redisson")).findFirst()
                    .filter(o -> o != r);
            KindContestant.KindCounts counts = r.counts();
            long holds = counts.reads() + counts.writes();
            return List.of(r.kind().label(), level.contestant(), Integer.toString(level.nodes()),
                    Integer.toString(level.inFlight()), spread(level.roundPairsPerSecond(), "%,.0f"),
                    baseline.map(b -> spread(ratios(level, b.level()), "%.2fx")).orElse("-"),
                    redisson.map(o -> spread(ratios(level, o.level()), "%.2fx")).orElse("-"),
                    micros(level.p50Micros()), micros(level.p99Micros()), whole(level.clientCpuMicros()),
                    whole(level.serverCpuMicros()), whole(100 * level.foreignCpuShare()),
                    Integer.toString(counts.mostAtOnce()),
                    r.kind() == Kind.READ_WRITE && holds > 0
                            ? String.format("%,d of %,d (%.1f %%)", counts.writes(), holds,
                                    100.0 * counts.writes() / holds) : "-",
                    Long.toString(counts.timeouts()), Long.toString(counts.violations()),
                    Long.toString(counts.failures()));
        }).toList();
        return new TextTable(List.of("kind", "contestant", "nodes", "threads", "pairs/s median (min–max)",
                "vs plain lock" + baseline.map(b -> ", " + b.level().nodes() + " node" + (b.level().nodes() == 1 ? ""
                        : "s")).orElse(""),
                "vs Redisson's", "p50 µs", "p99 µs", "client CPU µs/pair", "Redis CPU µs/pair",
                "other CPU % of a core", "most holders at once", "writes of holds", "waits ran out", "violations",
                "errors"), rows);
    }

    /** Round by round, {@code level}'s pairs per second over {@code base}'s (rounds where both ran). */
    private static List<Double> ratios(LevelResult level, LevelResult base) {
        List<Double> ratios = new java.util.ArrayList<>();
        for (int i = 0; i < Math.min(level.roundPairsPerSecond().size(), base.roundPairsPerSecond().size()); i++) {
            double of = base.roundPairsPerSecond().get(i);
            if (of > 0) {
                ratios.add(level.roundPairsPerSecond().get(i) / of);
            }
        }
        return ratios;
    }

    /** The median, and (min–max) when there is more than one value. */
    private static String spread(List<Double> values, String format) {
        if (values.isEmpty()) {
            return "-";
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        String median = String.format(format, Harness.median(sorted));
        return sorted.length == 1 ? median : median + " (" + String.format(format, sorted[0]) + "–"
                + String.format(format, sorted[sorted.length - 1]) + ")";
    }

    static TextTable contended(List<ContendedResult> results) {
        return new TextTable(List.of("contestant", "clients", "acquisitions/s", "of ideal", "wait p50 ms",
                "wait p99 ms", "timeouts"), results.stream().map(r -> List.of(r.contestant(),
                Integer.toString(r.clients()),
                String.format("%.1f", r.acquisitionsPerSecond()),
                String.format("%.0f %% of %.0f/s", 100 * r.acquisitionsPerSecond() / r.idealPerSecond(),
                        r.idealPerSecond()),
                String.format("%.1f", r.waitP50Micros() / 1000.0),
                String.format("%.1f", r.waitP99Micros() / 1000.0),
                Long.toString(r.timeouts()))).toList());
    }

    static TextTable heap(HeapResult result) {
        List<Long> used = result.usedBytes();
        return new TextTable(List.of("pairs", "used heap after GC (KiB)", "vs first (KiB)"),
                IntStream.range(0, used.size()).mapToObj(i -> List.of(
                        String.format("%,d", Math.min(result.pairs(), (i + 1) * result.every())),
                        String.format("%,d", used.get(i) >> 10),
                        String.format("%+,d", (used.get(i) - used.get(0)) >> 10))).toList());
    }

    private static String whole(double value) {
        return Double.isNaN(value) ? "-" : String.format("%.0f", value);
    }

    private static String micros(long value) {
        return String.format("%,d", value);
    }

    private static String ratio(double value, double baseline) {
        return baseline > 0 ? String.format("%.2fx", value / baseline) : "-";
    }
}
