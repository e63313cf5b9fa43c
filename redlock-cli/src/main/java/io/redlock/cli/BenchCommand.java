package io.redlock.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Runs the side-by-side benchmark of {@code redlock-bench} with Maven, from the source checkout this command was
 * built in: the harness's peers (Redisson) are test-scope dependencies of that module only, never part of this jar.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmark redlock-java against bare Lettuce and Redisson on 5 local nodes.",
            "Runs redlock-bench with Maven from the source checkout (Redisson is only on",
            "its test classpath); prints the tables, writes docs/bench/results.md and",
            "PNG charts. See docs/BENCHMARKS.md."},
        footer = {"%nExamples:",
            "  redlock bench                  # the full run, about 8 minutes",
            "  redlock bench --levels 1,64 --rounds 3 --no-contended",
            "  redlock bench --contestants fenced,lettuce --levels 64",
            "  redlock bench --heap           # heap after 1,000,000 pairs"})
final class BenchCommand implements Callable<Integer> {

    /** Set by the {@code ./redlock} launcher: the checkout the jar was built from. */
    static final String ENV_HOME = "REDLOCK_HOME";

    @Spec
    CommandSpec spec;

    @Option(names = "--levels", paramLabel = "N,N", description = "In-flight levels (default: 1,16,64,256).")
    String levels;

    @Option(names = "--rounds", paramLabel = "N", description = "Rounds per level (default: 5).")
    Integer rounds;

    @Option(names = "--contestants", paramLabel = "ID,ID",
            description = "Of fenced,unfenced,lettuce,redisson,redisson-redlock (default: all).")
    String contestants;

    @Option(names = "--contended", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also run the contended scenario; --no-contended skips it (default: yes).")
    boolean contended;

    @Option(names = "--heap", description = "Run the heap check instead of the side-by-side run.")
    boolean heap;

    @Option(names = "--out", paramLabel = "DIR", description = "Where results and charts go (default: docs/bench).")
    Path out;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        Optional<Path> home = checkout(System.getenv(ENV_HOME), Path.of(""));
        if (home.isEmpty()) {
            err.println("redlock: bench runs from a source checkout (it needs redlock-bench and Maven): run ./redlock"
                    + " bench from the repository, or set " + ENV_HOME + " to it");
            return ExitCodes.UNAVAILABLE;
        }
        List<String> command = new ArrayList<>(List.of("mvn", "-B", "-q", "-pl", "redlock-bench", "-am",
                "test-compile", "exec:java"));
        property(command, "bench.levels", levels);
        property(command, "bench.rounds", rounds);
        property(command, "bench.contestants", contestants);
        property(command, "bench.contended", contended ? null : "false");
        property(command, "bench.heap", heap ? "true" : null);
        property(command, "bench.out", out == null ? null : out.toAbsolutePath());
        Process maven = new ProcessBuilder(command).directory(home.get().toFile()).inheritIO().start();
        return maven.waitFor();
    }

    /** The checkout: {@code home} ($REDLOCK_HOME) if set, else {@code workingDir}, if it holds redlock-bench. */
    static Optional<Path> checkout(String home, Path workingDir) {
        Path candidate = (home != null && !home.isBlank() ? Path.of(home) : workingDir).toAbsolutePath().normalize();
        return Files.isRegularFile(candidate.resolve("redlock-bench").resolve("pom.xml"))
                ? Optional.of(candidate) : Optional.empty();
    }

    private static void property(List<String> command, String name, Object value) {
        if (value != null) {
            command.add("-D" + name + "=" + value);
        }
    }
}
