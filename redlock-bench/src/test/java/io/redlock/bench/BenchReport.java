package io.redlock.bench;

import java.nio.file.Path;
import java.util.List;

/** Everything one side-by-side run produced, and the files it wrote. */
record BenchReport(List<LevelResult> levels, List<ContendedResult> contended, Path resultsFile, List<Path> charts) {

    BenchReport {
        levels = List.copyOf(levels);
        contended = List.copyOf(contended);
        charts = List.copyOf(charts);
    }
}
