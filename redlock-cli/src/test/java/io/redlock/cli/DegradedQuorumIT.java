package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A quorum that degrades is said out loud: a lock taken while nodes did not take part names them and why on one
 * stderr line (never a password) unless --quiet, and a majority that refuses the credentials is its own exit code.
 */
@WithRedisNodes(5)
class DegradedQuorumIT {

    private static final String WRONG_PASSWORD = "wrong-pw-4711";

    /** The nodes' URIs, the ones at {@code refusing} with a user and password no node knows (WRONGPASS). */
    private static String nodesWithWrongPassword(RedisNodes nodes, int... refusing) {
        List<String> uris = new ArrayList<>(nodes.uris());
        for (int i : refusing) {
            RedisServer node = nodes.node(i);
            uris.set(i, "redis://ghost:" + WRONG_PASSWORD + "@" + node.address());
        }
        return String.join(",", uris);
    }

    private static List<String> degradedLines(Cli cli) throws IOException {
        return cli.err().lines().filter(l -> l.contains("not taking part")).toList();
    }

    @Test
    void aLockTakenWithANodeDownAndOneRefusingNamesBothOnOneLineUnlessQuiet(RedisNodes nodes) throws Exception {
        String list = nodesWithWrongPassword(nodes, 4);
        nodes.node(3).stop();
        try {
            Cli acquire = Cli.run(Map.of(), Cli.withNodeTimeout("acquire", "degraded", "--ttl", "5s", "--nodes",
                    list));
            assertThat(acquire.exitCode()).as(acquire.err()).isZero();
            assertThat(degradedLines(acquire)).as(acquire.err()).singleElement().satisfies(line -> assertThat(line)
                    .startsWith("redlock: acquired 'degraded' on 3 of 5 nodes")
                    .contains(nodes.node(3).address()).contains(nodes.node(4).address()).contains("WRONGPASS")
                    .doesNotContain(WRONG_PASSWORD));

            Cli run = Cli.run(Map.of(), Cli.withNodeTimeout("run", "degraded-run", "--nodes", list, "--", "true"));
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(degradedLines(run)).as(run.err()).hasSize(1);

            Cli quiet = Cli.run(Map.of(), Cli.withNodeTimeout("acquire", "degraded-quiet", "--ttl", "5s",
                    "--quiet", "--nodes", list));
            assertThat(quiet.exitCode()).as(quiet.err()).isZero();
            assertThat(quiet.err()).isEmpty();
        } finally {
            nodes.node(3).start();
        }
    }

    @Test
    void aMajorityRefusingTheCredentialsIs77NamingThemWithoutThePassword(RedisNodes nodes) throws Exception {
        String list = nodesWithWrongPassword(nodes, 0, 1, 2);
        for (String command : List.of("acquire", "run")) {
            Cli cli = command.equals("acquire")
                    ? Cli.run(Map.of(), Cli.withNodeTimeout("acquire", "refused", "--nodes", list))
                    : Cli.run(Map.of(), Cli.withNodeTimeout("run", "refused", "--nodes", list, "--", "true"));
            assertThat(cli.exitCode()).as(command + ": " + cli.err()).isEqualTo(ExitCodes.NO_PERMISSION);
            assertThat(cli.err()).as(command).contains("refused the credentials or permissions")
                    .contains(nodes.node(0).address()).contains(nodes.node(2).address()).contains("WRONGPASS")
                    .doesNotContain(WRONG_PASSWORD);
            assertThat(cli.out()).as(command).doesNotContain(WRONG_PASSWORD);
        }
    }
}
