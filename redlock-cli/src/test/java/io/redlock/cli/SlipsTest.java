package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.NodeStatus;
import io.redlock.ResourceStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a user types by mistake gets an answer that says what to do, without any node. */
class SlipsTest {

    private final InProcessCli cli = new InProcessCli();

    @ParameterizedTest
    @ValueSource(strings = {"run", "acquire", "extend", "release", "status", "doctor", "servers", "demo", "bench"})
    void everySubcommandPrintsTheVersionItsHelpPromises(String command) {
        assertThat(cli.run(command, "--version")).isZero();
        assertThat(cli.out.toString()).startsWith("redlock ");
    }

    @Test
    void bareRedlockPrintsItsUsageOnStderrAndIsAUsageError() {
        assertThat(cli.run()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err.toString()).contains("Usage: redlock");
        assertThat(cli.out.toString()).isEmpty();
    }

    @Test
    void anUnknownCommandIsNamedWithTheCommandsThereAre() {
        assertThat(cli.run("bogus")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err.toString().strip()).startsWith("redlock: unknown command 'bogus'")
                .contains(String.join(", ", ExitCodes.commands())).doesNotContain("Unmatched argument");
    }

    @Test
    void aMisspelledCommandGetsTheOneItProbablyMeant() {
        assertThat(cli.run("aquire", "job")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err.toString().lines()).hasSize(1);
        assertThat(cli.err.toString()).startsWith("redlock: unknown command 'aquire'; did you mean 'acquire'?");
    }

    @Test
    void aZeroTtlIsShownAsItIsWritten() {
        assertThat(cli.run("acquire", "x", "--ttl", "0s", "--nodes", "redis://127.0.0.1:1")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err.toString()).contains("was 0s").doesNotContain("PT0S");
    }

    @Test
    void aNodeWithoutASchemeGetsTheUriItProbablyMeant() {
        assertThat(cli.run("acquire", "x", "--nodes", "127.0.0.1:7801")).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.err.toString()).contains("redis://127.0.0.1:7801");
    }

    @Test
    void theStatusTableKeepsItsColumnsWithSixteenDigitTokens() {
        NodeStatus held = new NodeStatus("127.0.0.1:7801", Optional.empty(), Optional.of("abcdefghijklmnopq"),
                Optional.of(Duration.ofSeconds(29)), OptionalLong.of(1_838_019_870_000_001L), 12,
                Optional.of("waiter-one-two"), List.of());
        NodeStatus free = new NodeStatus("127.0.0.1:7802", Optional.empty(), Optional.empty(), Optional.empty(),
                OptionalLong.of(7), 0, Optional.empty(), List.of());
        StatusCommand.table(new ResourceStatus("job", 2, List.of(held, free)), new PrintWriter(cli.out, true));
        List<String> lines = cli.out.toString().lines().limit(3).toList();
        for (String header : List.of("TTL", "FENCE", "QUEUE")) { // numbers end under their header's end
            int end = lines.get(0).indexOf(header) + header.length();
            assertThat(lines.subList(1, 3)).as(header + " in%n%s", cli.out).allSatisfy(line ->
                    assertThat(line.charAt(end - 1)).isNotEqualTo(' ').satisfies(c ->
                            assertThat(end == line.length() || line.charAt(end) == ' ').isTrue()));
        }
        for (String header : List.of("HOLDER", "HEAD", "SHARED")) { // text starts under its header's start
            int start = lines.get(0).indexOf(header);
            assertThat(lines.subList(1, 3)).as(header + " in%n%s", cli.out).allSatisfy(line ->
                    assertThat(line.charAt(start - 1)).isEqualTo(' ').satisfies(c ->
                            assertThat(line.charAt(start)).isNotEqualTo(' ')));
        }
    }
}
