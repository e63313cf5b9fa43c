package io.redlock.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;

/** Writes the raw results as Markdown ({@code results.md}, {@code heap.md}) next to the charts. */
final class ResultsFile {

    private ResultsFile() {
    }

    static Path sideBySide(BenchConfig config, String environment, List<LevelResult> levels,
            List<ContendedResult> contended, List<Path> charts) {
        StringBuilder md = new StringBuilder();
        md.append("# Benchmark results (raw)\n\n")
                .append(header(environment))
                .append(String.format("Run: %s of unmeasured JIT warm-up per contestant, then %d round(s) per level, "
                        + "%s warm-up and %s measured window per contestant and round, interleaved; contestants %s.%n%n",
                        text(config.jit()), config.rounds(), text(config.warmup()),
                        text(config.window()), config.contestants()))
                .append("## Side by side\n\n")
                .append("A pair is one acquisition followed by its release, on a resource of its own per in-flight "
                        + "slot (TTL 10 s, no waiting). pairs/s is the median over the rounds; p50/p99/p99.9 "
                        + "(µs, per pair) come from the merged histograms of all measured windows. Ratios are to bare "
                        + "Lettuce (SET NX PX + compare-and-delete on 5 nodes, majority) at the same level. CPU per "
                        + "pair: the benchmark JVM's and the five redis-server processes' CPU time over the measured "
                        + "windows, divided by the pairs (medians of the rounds); client alloc: bytes the JVM's threads "
                        + "allocated per pair; other CPU: what every other process on the machine used meanwhile, in "
                        + "% of one core (from /proc/stat). Errors: "
                        + "pairs that failed, warm-ups included.\n\n")
                .append(Tables.sideBySide(levels).markdown()).append('\n');
        levels.stream().filter(r -> r.errors() > 0).forEach(r -> md.append(String.format(
                "- %s at %d in flight, first error: `%s`%n", r.contestant(), r.inFlight(), r.firstError())));
        charts.forEach(chart -> md.append(String.format("%n![%s](%s)%n", chart.getFileName(), chart.getFileName())));
        if (!contended.isEmpty()) {
            md.append(String.format("%n## Contended: %s clients, one resource, %d ms of work per hold%n%n",
                            config.contendedClients().stream().map(String::valueOf)
                                    .collect(java.util.stream.Collectors.joining(" and ")), Contended.WORK_MILLIS))
                    .append(String.format("Each client loops acquire (TTL 2 s, wait up to 5 s) → %d ms work → release; "
                            + "%s warm-up, %s measured. Wait = from starting to wait until acquired.%n%n",
                            Contended.WORK_MILLIS, text(config.contendedWarmup()), text(config.contendedWindow())))
                    .append(Tables.contended(contended).markdown());
        }
        return write(config.out().resolve("results.md"), md);
    }

    static Path heap(Path dir, String environment, HeapResult result) {
        StringBuilder md = new StringBuilder("# Heap check (raw)\n\n").append(header(environment))
                .append(String.format("%s: %,d acquire + release pairs, %d in flight on the same resources; used heap "
                        + "after System.gc() every %,d pairs. Growth from the first to the last sample: %+,d KiB, "
                        + "bound +%,d KiB: **%s**. Errors: %d%s.%n%n", result.contestant(), result.pairs(),
                        result.inFlight(), result.every(), result.growthBytes() >> 10, result.boundBytes() >> 10,
                        result.bounded() ? "bounded" : "NOT bounded", result.errors(),
                        result.errors() == 0 ? "" : " (first: `" + result.firstError() + "`)"))
                .append(Tables.heap(result).markdown());
        return write(dir.resolve("heap.md"), md);
    }

    private static String header(String environment) {
        return String.format("Written by `io.redlock.bench.BenchMain` at %s. %s.%n%n",
                Instant.now().truncatedTo(ChronoUnit.SECONDS), environment);
    }

    private static String text(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + " s" : duration.toMillis() + " ms";
    }

    private static Path write(Path file, CharSequence content) {
        try {
            Files.createDirectories(Objects.requireNonNull(file.getParent()));
            Files.writeString(file, content);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
