package io.redlock.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * Everything one side-by-side run produced, and the files it wrote ({@code kindsFile}: null when the kinds of lock
 * did not run).
 */
record BenchReport(List<LevelResult> levels, List<ContendedResult> contended, List<Kinds.Result> kinds,
        Path resultsFile, Path kindsFile, List<Path> charts) {

    BenchReport {
        levels = List.copyOf(levels);
        contended = List.copyOf(contended);
        kinds = List.copyOf(kinds);
        charts = List.copyOf(charts);
    }
}
