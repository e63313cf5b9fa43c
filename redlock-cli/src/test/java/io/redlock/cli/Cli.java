package io.redlock.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Runs the redlock command of the built distribution in a JVM of its own, as a user would. */
final class Cli {

    final Process process;
    private final Path out;
    private final Path err;

    private Cli(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /**
     * The per-node timeout every command the tests start gets unless its arguments name one: the CLI's default, 50
     * ms, is shorter than a reply can take on a loaded 2-core CI machine, where a slow node would then pass for a
     * silent one (no quorum, a lost lease). No test here is about the default; one about a silent node still sees it
     * time out. Under every --ttl the tests use.
     */
    static final String NODE_TIMEOUT = "500ms";

    /** The subcommands that talk to nodes, and so take --node-timeout. */
    private static final Set<String> NODE_COMMANDS = Set.of("acquire", "extend", "release", "run", "status", "doctor");

    /**
     * Starts the distribution the package phase built with {@code args} and the tests' node timeout, as a user would
     * run it: its launcher, JVM settings and class-data archive.
     */
    static Cli start(Map<String, String> env, String... args) throws IOException {
        return startDistribution(env, withNodeTimeout(args));
    }

    /** {@code args} with {@code --node-timeout} {@link #NODE_TIMEOUT} after the subcommand, unless they name one. */
    static String[] withNodeTimeout(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        int end = all.contains("--") ? all.indexOf("--") : all.size();
        if (all.isEmpty() || !NODE_COMMANDS.contains(all.get(0)) || all.subList(0, end).stream()
                .anyMatch(a -> a.equals("--node-timeout") || a.startsWith("--node-timeout="))) {
            return args;
        }
        all.addAll(1, List.of("--node-timeout", NODE_TIMEOUT));
        return all.toArray(String[]::new);
    }

    /**
     * Runs the distribution the package phase built ({@code target/redlock-<version>/bin/redlock}), as the
     * {@code ./redlock} launcher does; its directory comes from failsafe's {@code redlock.home} property.
     */
    static Cli startDistribution(Map<String, String> env, String... args) throws IOException {
        return launchCommand(List.of(distribution().resolve("bin").resolve("redlock").toString()), env, args);
    }

    /** The distribution directory the package phase built. */
    static Path distribution() {
        Path home = Path.of(System.getProperty("redlock.home", "target/redlock"));
        if (!Files.isExecutable(home.resolve("bin").resolve("redlock"))) {
            throw new AssertionError(home + "/bin/redlock is missing: the package phase builds it before the"
                    + " integration tests");
        }
        return home;
    }

    /**
     * Perl (Debian's essential perl-base) resets SIGINT to its default before it execs the JVM, keeping the pid: a
     * test JVM started in the background without job control inherits SIGINT ignored, and a JVM cannot catch a
     * signal that was ignored when it started — the Ctrl-C tests would then test nothing.
     */
    private static final List<String> DEFAULT_SIGINT = Files.isExecutable(Path.of("/usr/bin/perl"))
            ? List.of("/usr/bin/perl", "-e", "$SIG{INT} = 'DEFAULT'; exec { $ARGV[0] } @ARGV or die \"exec: $!\"")
            : List.of();

    /** Starts {@code program} (a command and its first arguments) with {@code args}, as a user would. */
    static Cli launchCommand(List<String> program, Map<String, String> env, String... args)
            throws IOException {
        List<String> command = new ArrayList<>(DEFAULT_SIGINT);
        command.addAll(program);
        command.addAll(List.of(args));
        Path out = Files.createTempFile(OUTPUT, "out", ".txt");
        Path err = Files.createTempFile(OUTPUT, "err", ".txt");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(env);
        return new Cli(builder.start(), out, err);
    }

    /**
     * Where the commands' stdout and stderr go: a directory of this test JVM's, deleted with what is in it when the
     * JVM exits, so that output a test does not delete itself is not left behind.
     */
    private static final Path OUTPUT = outputDirectory();

    private static Path outputDirectory() {
        try {
            Path directory = Files.createTempDirectory("redlock-cli-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(directory), "redlock-cli-output"));
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // the JVM is exiting: what could not be listed stays in the temporary directory
        }
    }

    /** The process id of this redlock JVM. */
    long pid() {
        return process.pid();
    }

    /** Runs to completion (bounded) and returns the exit code. */
    static Cli run(Map<String, String> env, String... args) throws Exception {
        Cli cli = start(env, args);
        cli.waitFor();
        return cli;
    }

    int waitFor() throws InterruptedException, IOException {
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("redlock did not finish in 120 s; stdout:\n" + out() + "\nstderr:\n" + err());
        }
        return process.exitValue();
    }

    int exitCode() {
        return process.exitValue();
    }

    String out() throws IOException {
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    String err() throws IOException {
        return Files.readString(err, StandardCharsets.UTF_8);
    }

    /** Deletes the files stdout and stderr went to, once they are read or not needed. */
    void deleteOutput() throws IOException {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
    }

    /** Sends a signal to this JVM (one this test started). */
    void signal(String name) throws Exception {
        new ProcessBuilder("kill", "-" + name, Long.toString(process.pid())).start().waitFor();
    }
}
