package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class DemoAndServersIT {

    @Test
    void theDemoRunsToTheEndWithEqualCountersWhenFenced() throws Exception {
        Cli cli = Cli.run(Map.of(), "demo");
        String out = cli.out();
        assertThat(cli.exitCode()).as(out + cli.err()).isZero();
        Matcher fenced = Pattern.compile("with fencing: .*counter (\\d+) = acknowledged increments (\\d+)")
                .matcher(out);
        assertThat(fenced.find()).as(out).isTrue();
        assertThat(fenced.group(1)).isEqualTo(fenced.group(2));
        assertThat(out).contains("REJECTED by the storage").contains(">>> Fault 1").contains(">>> Fault 2")
                .contains(">>> Fault 3");
        assertThat(out).containsPattern("without fencing: .*LOST");
    }

    @Test
    void serversStartNodesAndStopThemOnTerm() throws Exception {
        Cli cli = Cli.start(Map.of(), "servers", "--count", "3");
        await().atMost(Duration.ofSeconds(60)).until(() -> cli.out().contains("Press Ctrl-C"));
        List<Long> pids = Pattern.compile("pid (\\d+)").matcher(cli.out()).results()
                .map(m -> Long.parseLong(m.group(1))).toList();
        assertThat(pids).hasSize(3).allMatch(pid -> ProcessHandle.of(pid).isPresent());
        assertThat(cli.out()).containsPattern("export REDLOCK_NODES=redis://127\\.0\\.0\\.1:\\d+,");
        cli.signal("TERM");
        cli.waitFor();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> pids.stream().noneMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive)
                        .orElse(false)));
        assertThat(cli.err()).contains("stopped 3 redis-server nodes");
    }
}
