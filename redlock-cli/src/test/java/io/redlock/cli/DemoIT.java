package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** redlock demo, from the distribution as ./redlock runs it, and on a machine without gcc or redis-server. */
class DemoIT {

    @TempDir
    Path dir;

    @Test
    void theDistributionRunsTheDemoToTheEndWithEqualCountersWhenFenced() throws Exception {
        Cli cli = Cli.startDistribution(Map.of(), "demo");
        cli.waitFor();
        String out = cli.out();
        assertThat(cli.exitCode()).as(out + cli.err()).isZero();
        assertFencedCountersEqualAndPlainLost(out);
        assertThat(out).contains("REJECTED by the storage").contains(">>> Fault 1").contains(">>> Fault 2")
                .contains(">>> Fault 3").doesNotContain(DemoCommand.CLOCK_JUMP_SKIPPED);
        assertThat(out).contains("Started 11 independent redis-server").contains("all nodes stopped");
        assertThat(out).as("what a user of the distribution cannot look up").doesNotContain("SPEC ");
    }

    @Test
    void withoutGccTheDemoSkipsOnlyTheClockJumpAndSaysWhy() throws Exception {
        // a fresh machine: no gcc and no redis-server on the PATH (the embedded binary is used), only kill(1) and
        // what starts the command (bash, java; without the class-data archive, made for the java of the build)
        Path bin = Files.createDirectories(dir.resolve("bin"));
        for (String program : List.of("kill", "bash")) {
            Files.createSymbolicLink(bin.resolve(program), onPath(program));
        }
        Files.createSymbolicLink(bin.resolve("java"), Path.of(System.getProperty("java.home"), "bin", "java"));
        Cli cli = Cli.run(Map.of("PATH", bin.toString(), "REDLOCK_CDS", "off"), "demo");
        String out = cli.out();
        assertThat(cli.exitCode()).as(out + cli.err()).isZero();
        assertThat(out.lines().filter(DemoCommand.CLOCK_JUMP_SKIPPED::equals)).hasSize(1);
        assertThat(out).contains(">>> Fault 1").contains(">>> Fault 2").doesNotContain(">>> Fault 3");
        assertFencedCountersEqualAndPlainLost(out);
    }

    private static void assertFencedCountersEqualAndPlainLost(String out) {
        Matcher fenced = Pattern.compile("with fencing: .*counter (\\d+) = acknowledged increments (\\d+)")
                .matcher(out);
        assertThat(fenced.find()).as(out).isTrue();
        assertThat(fenced.group(1)).isEqualTo(fenced.group(2));
        assertThat(out).containsPattern("without fencing: .*LOST");
    }

    private static Path onPath(String program) {
        return Arrays.stream(System.getenv("PATH").split(":")).map(d -> Path.of(d, program))
                .filter(Files::isExecutable).findFirst()
                .orElseThrow(() -> new AssertionError(program + " is not on the PATH"));
    }
}
