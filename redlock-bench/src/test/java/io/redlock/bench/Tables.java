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
