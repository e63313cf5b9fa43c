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
 * Runs the side-by-side benchmark of {@code redlock-bench} from the source checkout this command was built in, with
 * {@code java} on the class path that module's build wrote to {@code redlock-bench/target/bench.classpath} (the
 * harness's peers, Redisson, are test-scope dependencies of that module only, never part of this distribution).
 * It never starts Maven: when redlock-bench was not built, it says how to build it.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Benchmark redlock-java against bare Lettuce and Redisson on 5 local nodes.",
            "Runs redlock-bench from the source checkout, as built there (Redisson is only on its "
                    + "test classpath); prints the tables, writes docs/bench/results.md and PNG charts, and the "
                    + "kinds of lock (several resources, read-write, semaphore next to Redisson's) to "
                    + "docs/bench/kinds.md.",
            "Build it first: mvn -B -DskipTests -pl redlock-bench -am package.",
            "See docs/BENCHMARKS.md."},
        footer = {"%nExamples:",
            "  redlock bench                  # the full run, about 12 minutes",
            "  redlock bench --levels 1,64 --rounds 3 --no-contended --no-kinds",
            "  redlock bench --contestants fenced,lettuce --levels 64",
            "  redlock bench --kinds-only --rounds 3   # the kinds of lock alone, ~3 min",
            "  redlock bench --heap           # heap after 1,000,000 pairs"})
final class BenchCommand implements Callable<Integer> {

    /** Set by the {@code ./redlock} launcher: the checkout the jar was built from. */
    static final String ENV_HOME = "REDLOCK_HOME";

    /** Written by the redlock-bench build: the harness's runtime class path (its test scope). */
    static final String CLASSPATH_FILE = "redlock-bench/target/bench.classpath";

    /** How to build what this command runs. */
    static final String BUILD_HINT = "mvn -B -DskipTests -pl redlock-bench -am package";

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

    @Option(names = "--kinds", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also run the kinds of lock; --no-kinds skips them (default: yes).")
    boolean kinds;

    @Option(names = "--kinds-only", description = "Run the kinds of lock alone (with --rounds).")
    boolean kindsOnly;

    @Option(names = "--heap", description = "Run the heap check instead of the side-by-side run.")
    boolean heap;

    @Option(names = "--out", paramLabel = "DIR", description = "Where results and charts go (default: docs/bench).")
    Path out;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        Optional<Path> home = checkout(System.getenv(ENV_HOME), Path.of(""));
        if (home.isEmpty()) {
            err.println("redlock: bench runs from a source checkout (it needs redlock-bench, built): run ./redlock"
                    + " bench from the repository, or set " + ENV_HOME + " to it");
            return ExitCodes.UNAVAILABLE;
        }
        return runFrom(home.get(), err);
    }

    /** Runs the harness built in {@code home}, or says how to build it (exit 69). */
    int runFrom(Path home, PrintWriter err) throws IOException, InterruptedException {
        Optional<String> classpath = classpath(home);
        if (classpath.isEmpty()) {
            err.println("redlock: redlock-bench is not built in " + home + ": build it with " + BUILD_HINT);
            return ExitCodes.UNAVAILABLE;
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(properties());
        command.addAll(List.of("-cp", classpath.get(), "io.redlock.bench.BenchMain"));
        Process bench = new ProcessBuilder(command).directory(home.toFile()).inheritIO().start();
        return bench.waitFor();
    }

    /** The options as the harness's system properties ({@code BenchConfig}): {@code -Dname=value}, given ones only. */
    List<String> properties() {
        List<String> properties = new ArrayList<>();
        property(properties, "bench.levels", levels);
        property(properties, "bench.rounds", rounds);
        property(properties, "bench.contestants", contestants);
        property(properties, "bench.contended", contended ? null : "false");
        property(properties, "bench.kinds", kinds ? null : "false");
        property(properties, "bench.kinds.only", kindsOnly ? "true" : null);
        property(properties, "bench.heap", heap ? "true" : null);
        property(properties, "bench.out", out == null ? null : out.toAbsolutePath());
        return properties;
    }

    /**
     * The harness's class path in {@code checkout}: its test and main classes, then the dependencies its build
     * listed; empty when redlock-bench was not built (no list, or no compiled harness).
     */
    static Optional<String> classpath(Path checkout) throws IOException {
        Path bench = checkout.resolve("redlock-bench").resolve("target");
        Path listed = checkout.resolve(CLASSPATH_FILE);
        Path harness = bench.resolve("test-classes").resolve("io").resolve("redlock").resolve("bench")
                .resolve("BenchMain.class");
        if (!Files.isRegularFile(listed) || !Files.isRegularFile(harness)) {
            return Optional.empty();
        }
        return Optional.of(String.join(java.io.File.pathSeparator, bench.resolve("test-classes").toString(),
                bench.resolve("classes").toString(), Files.readString(listed).trim()));
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
