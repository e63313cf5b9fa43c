package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How ExamplesIT reads the documentation: what counts as an example, and what breaks one. */
class ExamplesTest {

    /** A help footer whose cron line picocli wrapped at 80 columns into two lines. */
    private static final String WRAPPED = """
            Examples:
              redlock run nightly-report -- ./build-report.sh --full
              */5 * * * * REDLOCK_NODES=redis://h1:6379,redis://h2:6379,redis://h3:6379
            redlock run cleanup -- ./cleanup

            Exit codes: the command's own
            """;

    @Test
    void aWrappedExampleLineIsRefused() {
        assertThatThrownBy(() -> Examples.shellLinesOfHelp(WRAPPED)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("an example line wraps").hasMessageContaining("redlock run cleanup");
    }

    @Test
    void examplesAreTheIndentedLinesUnderTheirHeadingsButTheLongRunningOnes() {
        String help = """
                Usage: redlock [COMMAND]

                Start here:
                  redlock demo                         # the whole story
                  redlock run nightly -- ./job.sh

                Examples:
                  ./redlock servers --count 3
                  lease=$(redlock acquire job) || exit

                Exit codes: 0 acquired
                """;
        assertThat(Examples.shellLinesOfHelp(help)).containsExactly("redlock run nightly -- ./job.sh",
                "lease=$(redlock acquire job) || exit");
    }

    @Test
    void aCrontabHasEnvironmentLinesAndScheduledCommands() {
        Examples.Crontab crontab = Examples.crontab(List.of("REDLOCK_NODES=redis://h1:6379,redis://h2:6379",
                "*/5 * * * * /opt/redlock/bin/redlock run cleanup -- /opt/jobs/cleanup"));
        assertThat(crontab.environment()).containsExactly("REDLOCK_NODES=redis://h1:6379,redis://h2:6379");
        assertThat(crontab.commands()).containsExactly("/opt/redlock/bin/redlock run cleanup -- /opt/jobs/cleanup");
        assertThatThrownBy(() -> Examples.crontab(List.of("redlock run cleanup -- ./cleanup")))
                .hasMessageContaining("not a crontab line");
    }

    @Test
    void placeholdersBecomeTheTestsNodesAndPaths() {
        List<String> nodes = List.of("redis://127.0.0.1:41001", "redis://127.0.0.1:41002", "redis://127.0.0.1:41003");
        assertThat(Examples.localize("--nodes redis://h1,redis://h2:6379 /opt/redlock/bin/redlock -- /opt/jobs/x",
                nodes, "/tmp/dist", "/tmp/jobs")).isEqualTo(
                "--nodes redis://127.0.0.1:41001,redis://127.0.0.1:41002 /tmp/dist/bin/redlock -- /tmp/jobs/x");
        assertThat(Examples.localize("export REDLOCK_NODES=redis://127.0.0.1:7000,redis://127.0.0.1:7002", nodes,
                "", "")).isEqualTo("export REDLOCK_NODES=redis://127.0.0.1:41001,redis://127.0.0.1:41003");
    }

    @Test
    void markdownBlocksComeFromTheirSectionAndLanguage() {
        String markdown = """
                ## Other
                ```bash
                echo other
                ```
                ## Examples
                ```bash
                ./redlock doctor
                ```
                ```crontab
                */5 * * * * /opt/redlock/bin/redlock run x -- /opt/jobs/x
                ```
                ## Next
                """;
        assertThat(Examples.markdownBlocks(markdown, "## Examples", "bash")).containsExactly("./redlock doctor");
        assertThat(Examples.markdownBlocks(markdown, "## Examples", "crontab")).hasSize(1);
    }
}
