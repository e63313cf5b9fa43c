package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Inspection.TokenGuarantee;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import org.junit.jupiter.api.Test;

/** redlock.inspect() reads the real settings of real nodes. */
class InspectIT {

    @Test
    @WithRedisNodes(3)
    void reportsDefaultNodesAsNotDurable(RedisNodes nodes) {
        try (Redlock redlock = ItSupport.countingFromOne(redlockOn(nodes)).build()) { // no clock floor either
            Inspection inspection = redlock.inspect();
            assertThat(inspection.nodes()).hasSize(3).allSatisfy(node -> {
                assertThat(node.reachable()).isTrue();
                assertThat(node.isMaster()).isTrue();
                assertThat(node.version()).isPresent();
                assertThat(node.maxmemoryPolicy()).contains("noeviction");
                assertThat(node.appendOnly()).contains(false);
                assertThat(node.runId()).isPresent();
            });
            assertThat(inspection.tokenGuarantee()).isEqualTo(TokenGuarantee.LOST_ON_RESTART);
            assertThat(inspection.warnings()).hasSize(3).allMatch(w -> w.contains("delayed restart"));
        }
    }

    @Test
    @WithRedisNodes(3)
    void reportsTheClockFloorOfTheDefaults(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            assertThat(redlock.inspect().tokenGuarantee()).isEqualTo(TokenGuarantee.CLOCK_FLOOR);
        }
    }

    @Test
    @WithRedisNodes(value = 3, args = {"--appendonly", "yes", "--appendfsync", "always"})
    void reportsFsyncAlwaysAsDurableCounters(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Inspection inspection = redlock.inspect();
            assertThat(inspection.nodes()).allSatisfy(node -> assertThat(node.appendFsync()).contains("always"));
            assertThat(inspection.tokenGuarantee()).isEqualTo(TokenGuarantee.DURABLE_COUNTERS);
            assertThat(inspection.warnings()).isEmpty();
        }
    }

    @Test
    @WithRedisNodes(3)
    void reportsEvictionReplicasAndDownNodes(RedisNodes nodes) {
        nodes.node(0).redis(r -> r.configSet("maxmemory-policy", "allkeys-lru"));
        nodes.node(2).kill();
        try (RedisServer replica = RedisServer.launch("--replicaof", "127.0.0.1",
                Integer.toString(nodes.node(1).port()));
                Redlock redlock = Redlock.builder().nodes(nodes.node(0).uri(), replica.uri(), nodes.node(2).uri())
                        .build()) {
            Inspection inspection = redlock.inspect();
            assertThat(inspection.nodes().get(0).mayEvictCounters()).isTrue();
            assertThat(inspection.nodes().get(1).isMaster()).isFalse();
            assertThat(inspection.nodes().get(2).reachable()).isFalse();
            assertThat(inspection.tokenGuarantee()).isEqualTo(TokenGuarantee.UNKNOWN);
            assertThat(String.join("\n", inspection.warnings())).contains("allkeys-lru").contains("role is slave")
                    .contains("not reachable");
        }
    }
}
