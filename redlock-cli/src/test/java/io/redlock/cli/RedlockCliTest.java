package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** Parsing, help and exit codes, without any node. */
class RedlockCliTest {

    private final InProcessCli cli = new InProcessCli();
    private final StringWriter out = cli.out;
    private final StringWriter err = cli.err;

    private int run(String... args) {
        return cli.run(args);
    }

    @ParameterizedTest
    @ValueSource(strings = {"run", "acquire", "extend", "release", "status", "doctor", "servers", "demo", "bench"})
    void everySubcommandHasHelpWithExamplesAndItsExitCodes(String command) {
        assertThat(run(command, "--help")).isZero();
        assertThat(out.toString()).contains("Usage: redlock " + command).contains("Example").contains("Exit codes:")
                .contains(" 64   bad input").contains(" 70   ");
        ExitCodes.of(command).forEach((code, meaning) -> assertThat(out.toString().replaceAll("\\s+", " "))
                .contains(code.trim() + " " + meaning.substring(0, Math.min(40, meaning.length()))));
    }

    @Test
    void theTopLevelHelpListsTheWholeContractAndEveryCommandHasOne() {
        assertThat(run("--help")).isZero();
        assertThat(out.toString()).contains("Exit codes:").contains("status").contains("--quiet")
                .contains("--verbose").contains("--debug");
        ExitCodes.summary().forEach((code, meaning) -> assertThat(out.toString()).contains(code.trim()));
        CommandLine cli = RedlockCli.commandLine();
        assertThat(ExitCodes.commands()).containsExactlyInAnyOrderElementsOf(cli.getSubcommands().keySet().stream()
                .filter(name -> !name.equals("help")).toList());
    }

    @Test
    void theCommandsDocumentationShowsTheSameExitCodes() throws Exception {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("..", "docs", "CLI.md"));
        assertThat(doc).contains(ExitCodes.markdown());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "run job --no-such-option --nodes redis://127.0.0.1:1 -- true",
        "run --read r --resource a --nodes redis://127.0.0.1:1 -- true",
        "run job --write job --nodes redis://127.0.0.1:1 -- true",
        "run --read r --nodes redis://127.0.0.1:1 true",
        "run --resource a --resource a --nodes redis://127.0.0.1:1 -- true",
        "acquire job --ttl 3q --nodes redis://127.0.0.1:1",
        "acquire job --ttl 99999999999999999999s --nodes redis://127.0.0.1:1",
        "acquire job --ttl 2562047788015215h --nodes redis://127.0.0.1:1",
        "extend job --value v --nodes redis://127.0.0.1:70000",
        "extend job --value v --nodes redis://127.0.0.1:0",
        "release job --value v --nodes redis//no-scheme",
        "release job --value v --node-timeout -5s --nodes redis://127.0.0.1:1",
        "acquire job --fence-counter-ttl 1s --nodes redis://127.0.0.1:1",
        "status job --nodes redis://127.0.0.1:notaport",
        "doctor --ttl forever --nodes redis://127.0.0.1:1",
        "servers --port-base 70000",
        "servers --port-base -1",
        "servers --count many",
        "demo --bogus",
        "bench --rounds lots"})
    void badInputIsAUsageErrorOnOneLine(String line) {
        assertThat(run(line.split(" "))).as(err.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString().lines().toList()).hasSize(1).allMatch(l -> l.startsWith("redlock: "));
        assertThat(err.toString()).doesNotContain("\tat ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"acquire", "extend --value v", "release --value v", "status", "run"})
    void aBlankResourceIsAUsageError(String command) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.addAll(1, List.of(" ", "--nodes", "redis://127.0.0.1:1"));
        if (command.equals("run")) {
            args.addAll(List.of("--", "true"));
        }
        assertThat(run(args.toArray(String[]::new))).as(err.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("resource").doesNotContain("\tat ");
    }

    @picocli.CommandLine.Command(name = "boom")
    static final class Boom implements java.util.concurrent.Callable<Integer> {
        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            RedlockCli global = RedlockCli.of(spec);
            spec.commandLine().getOut().println("quiet=" + global.quiet + " verbose=" + global.verbose);
            throw new IllegalStateException("a bug");
        }
    }

    private int runWithBoom(String... args) {
        CommandLine cli = RedlockCli.commandLine();
        cli.addSubcommand("boom", new Boom());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void anInternalErrorIsOneLineAndTheStackTraceNeedsDebug() {
        assertThat(runWithBoom("boom", "--quiet")).isEqualTo(ExitCodes.SOFTWARE);
        assertThat(out.toString()).contains("quiet=true verbose=false");
        assertThat(err.toString().lines().toList()).containsExactly(
                "redlock: internal error: IllegalStateException: a bug (--debug prints the stack trace)");
        err.getBuffer().setLength(0);
        assertThat(runWithBoom("boom", "--debug")).isEqualTo(ExitCodes.SOFTWARE);
        assertThat(err.toString()).contains("IllegalStateException: a bug").contains("\tat ");
    }

    @Test
    void benchRunsFromTheSourceCheckoutOnly() {
        // surefire's working directory is redlock-cli/; the repository root holds redlock-bench
        java.nio.file.Path moduleDir = java.nio.file.Path.of("");
        java.nio.file.Path root = moduleDir.toAbsolutePath().getParent();
        assertThat(BenchCommand.checkout(null, moduleDir)).isEmpty();
        assertThat(BenchCommand.checkout(null, root)).contains(root);
        assertThat(BenchCommand.checkout(root.toString(), moduleDir)).contains(root);
        assertThat(BenchCommand.checkout(moduleDir.toAbsolutePath().toString(), root)).isEmpty();
    }

    @Test
    void withoutNodesItIsAUsageError() {
        assertThat(run("acquire", "job")).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("no nodes").contains("REDLOCK_NODES");
    }

    @Test
    void aBadDurationIsAUsageError() {
        assertThat(run("acquire", "job", "--ttl", "3q", "--nodes", "redis://127.0.0.1:1")).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("'3q' is not a duration");
    }

    @Test
    void statusShortensValues() {
        assertThat(StatusCommand.shorten("abcdefghijklmnop")).isEqualTo("abcdefgh...");
        assertThat(StatusCommand.shorten("short")).isEqualTo("short");
    }

    @Test
    void runNeedsACommand() {
        assertThat(run("run", "job", "--nodes", "redis://127.0.0.1:1")).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("CMD");
    }

    @Test
    void passwordsAreNeverEchoed() {
        assertThat(run("acquire", "job", "--node-timeout", "redis://:s3cret-pw@h:1")).isEqualTo(ExitCodes.USAGE);
        assertThat(run("acquire", "job", "--nodes", "redis://:s3cret-pw@127.0.0.1:notaport")).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("***@").doesNotContain("s3cret-pw");
        assertThat(out.toString()).doesNotContain("s3cret-pw");
    }

    @Test
    void durationsReadTheUsualUnits() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Durations.parse("PT1.5S")).isEqualTo(Duration.ofMillis(1500));
        assertThatThrownBy(() -> Durations.parse("soon")).isInstanceOf(CommandLine.TypeConversionException.class);
        assertThat(Durations.format(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(Durations.format(Duration.ofMinutes(2))).isEqualTo("2m");
    }

    @Test
    void versionIsPrinted() {
        assertThat(run("--version")).isZero();
        assertThat(out.toString()).startsWith("redlock ");
    }
}
