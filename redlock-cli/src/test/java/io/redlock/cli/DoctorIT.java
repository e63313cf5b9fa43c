package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.AclSetuserArgs;
import io.lettuce.core.protocol.CommandType;
import io.redlock.testkit.RedisCluster;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** redlock doctor on healthy and broken node sets. */
class DoctorIT {

    @Test
    @WithRedisNodes(value = 3, args = {"--appendonly", "yes", "--appendfsync", "always"})
    void aHealthySetIsAllOk(RedisNodes nodes) throws Exception {
        Cli cli = Cli.run(Map.of(), "doctor", "--nodes", String.join(",", nodes.uris()));
        assertThat(cli.exitCode()).isZero();
        List<String> rows = cli.out().lines().filter(l -> l.startsWith("127.0.0.1") || l.startsWith("all")).toList();
        assertThat(rows).hasSize(3 * 9 + 1).allMatch(l -> l.contains(" OK "));
        assertThat(cli.out()).contains("verdict: OK (0 FAIL, 0 WARN)");
    }

    @Test
    @WithRedisNodes(3)
    void aBrokenSetGetsTheRightFailRows(RedisNodes nodes) throws Exception {
        nodes.node(0).redis(r -> r.configSet("maxmemory-policy", "allkeys-lru"));
        try (RedisServer replica = RedisServer.launch("--replicaof", "127.0.0.1",
                Integer.toString(nodes.node(2).port()))) {
            String twice = "redis://localhost:" + nodes.node(1).port(); // node 2 again, under another name
            Cli cli = Cli.run(Map.of(), "doctor", "--json", "--nodes",
                    String.join(",", nodes.node(0).uri(), nodes.node(1).uri(), twice, replica.uri()));
            assertThat(cli.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
            String json = cli.out();
            assertThat(json).contains("\"verdict\":\"FAIL\"");
            assertThat(json).contains("{\"node\":\"" + nodes.node(0).address()
                    + "\",\"check\":\"eviction\",\"status\":\"FAIL\"");
            assertThat(json).contains("{\"node\":\"localhost:" + nodes.node(1).port()
                    + "\",\"check\":\"independence\",\"status\":\"FAIL\"");
            assertThat(json).contains("{\"node\":\"" + replica.address() + "\",\"check\":\"role\",\"status\":\"FAIL\"");
            assertThat(json).contains("\"fails\":3");
            assertThat(json).as("what a user of the distribution cannot look up").doesNotContain("SPEC ");
            assertThat(json).as("the persistence advice says what fixes it").containsPattern("\"check\":"
                    + "\"persistence\",\"status\":\"WARN\",\"detail\":\"[^\"]*appendfsync always[^\"]*delayed restart");
        }
    }

    @Test
    void clusterMembersGetACoverageRowAndEachMastersRowsAndACopyOrANonClusterFails() throws Exception {
        try (RedisCluster whole = RedisCluster.start(2); RedisCluster holed = RedisCluster.start(2);
                RedisServer plain = RedisServer.launch()) {
            int[] hole = java.util.stream.IntStream.range(0, 100).toArray();
            holed.nodes().forEach(node -> node.redis(r -> r.clusterDelSlots(hole)));
            String first = "cluster:" + whole.seedUris().get(0);
            String again = "cluster:" + whole.seedUris().get(1); // the same cluster under its other master
            String partial = "cluster:" + String.join("|", holed.seedUris());
            String notACluster = "cluster:" + plain.uri();
            Cli cli = Cli.run(Map.of(), "doctor", "--json", "--nodes", String.join(",", first, again, partial,
                    notACluster));
            String json = cli.out();
            assertThat(cli.exitCode()).as(json + cli.err()).isEqualTo(ExitCodes.CHECK_FAILED);
            String wholeName = "cluster:" + whole.nodes().node(0).address();
            assertThat(json).contains("{\"node\":\"" + wholeName + "\",\"check\":\"cluster\",\"status\":\"OK\","
                    + "\"detail\":\"2 masters, 0 replicas, 16384 of 16384 slots covered, cluster_state ok\"");
            for (RedisServer master : whole.nodes()) {
                for (String check : List.of("latency", "role", "eviction", "scripting", "clock")) {
                    assertThat(json).contains("{\"node\":\"" + master.address() + "\",\"check\":\"" + check
                            + "\",\"status\":\"OK\"");
                }
            }
            assertThat(json).contains("{\"node\":\"cluster:" + whole.nodes().node(1).address()
                    + "\",\"check\":\"independence\",\"status\":\"FAIL\",\"detail\":\"the same cluster as "
                    + wholeName);
            assertThat(json).containsPattern("\\{\"node\":\"cluster:[^\"]*\",\"check\":\"cluster\",\"status\":"
                    + "\"FAIL\",\"detail\":\"2 masters, 0 replicas, 16284 of 16384 slots covered");
            assertThat(json).contains("{\"node\":\"cluster:" + plain.address() + "\",\"check\":\"reachable\","
                    + "\"status\":\"FAIL\"");
            assertThat(json).contains("\"fails\":3");
        }
    }

    @Test
    @WithRedisNodes(3)
    void aUserDeniedEvalshaFailsTheScriptingRow(RedisNodes nodes) throws Exception {
        // EVAL works for this user, but the library sends its scripts by EVALSHA
        nodes.node(0).redis(r -> r.aclSetuser("no-evalsha", AclSetuserArgs.Builder.on()
                .addPassword("limited-pw").allKeys().allChannels().allCommands().removeCommand(
                        CommandType.EVALSHA)));
        String limited = "redis://no-evalsha:limited-pw@" + nodes.node(0).address();
        Cli cli = Cli.run(Map.of(), "doctor", "--json", "--nodes",
                String.join(",", limited, nodes.node(1).uri(), nodes.node(2).uri()));
        assertThat(cli.exitCode()).as(cli.out() + cli.err()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(cli.out()).containsPattern("\\{\"node\":\"" + nodes.node(0).address().replace(".", "\\.")
                + "\",\"check\":\"scripting\",\"status\":\"FAIL\",\"detail\":\"EVALSHA refused: [^\"]*NOPERM");
        assertThat(cli.out()).contains("\"fails\":1").doesNotContain("limited-pw");
    }

    @Test
    @WithRedisNodes(3)
    void anUnreachableNodeIsAFailAndPasswordsStayHidden(RedisNodes nodes) throws Exception {
        nodes.node(2).kill();
        Cli cli = Cli.run(Map.of(), "doctor", "--nodes",
                "redis://:top-secret@" + nodes.node(0).address() + "," + nodes.node(1).uri() + "," + nodes.node(2).uri());
        assertThat(cli.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(cli.out()).contains(nodes.node(2).address() + "  reachable").contains("FAIL");
        assertThat(cli.out() + cli.err()).doesNotContain("top-secret");
    }

    @Test
    @WithRedisNodes(3)
    void theEvictionRowRendersCoresReadingOfThePolicy(RedisNodes nodes) throws Exception {
        nodes.node(0).redis(r -> r.configSet("maxmemory-policy", "allkeys-lru"));
        nodes.node(1).redis(r -> r.configSet("maxmemory-policy", "volatile-ttl"));
        Cli cli = Cli.run(Map.of(), "doctor", "--json", "--nodes", String.join(",", nodes.uris()));
        assertThat(cli.exitCode()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(cli.out()).contains("{\"node\":\"" + nodes.node(0).address() + "\",\"check\":\"eviction\","
                + "\"status\":\"FAIL\",\"detail\":\"maxmemory-policy allkeys-lru: memory pressure can evict lock keys"
                + " (two holders) and fencing counters; use noeviction\"}");
        assertThat(cli.out()).contains("{\"node\":\"" + nodes.node(1).address() + "\",\"check\":\"eviction\","
                + "\"status\":\"FAIL\",\"detail\":\"maxmemory-policy volatile-ttl: memory pressure can evict lock keys"
                + " (two holders); use noeviction\"}");
        assertThat(cli.out()).contains("{\"node\":\"" + nodes.node(2).address() + "\",\"check\":\"eviction\","
                + "\"status\":\"OK\",\"detail\":\"maxmemory-policy noeviction\"}");
        assertThat(cli.out()).contains("\"fails\":2");
    }
}
