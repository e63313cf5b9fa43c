package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** Parsing, help and exit codes, without any node. */
class RedlockCliTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = RedlockCli.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @ParameterizedTest
    @ValueSource(strings = {"run", "acquire", "extend", "release", "doctor", "servers", "demo", "bench"})
    void everySubcommandHasHelpWithExamples(String command) {
        assertThat(run(command, "--help")).isZero();
        assertThat(out.toString()).contains("Usage: redlock " + command).contains("Example");
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
