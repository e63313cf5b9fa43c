package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Inspection.TokenGuarantee;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which configuration gives which guarantee, decided from node reports. */
class InspectionTest {

    private static NodeReport node(String name, String runId, String policy, boolean aof, String fsync, String role) {
        return new NodeReport(name, Optional.empty(), Optional.of("7.0.15"), Optional.of(role), Optional.of(runId),
                Optional.of(false), Optional.of(policy), Optional.of(aof), Optional.of(fsync));
    }

    private static NodeReport durable(String name) {
        return node(name, "id-" + name, "noeviction", true, "always", "master");
    }

    private static NodeReport volatileOnly(String name) {
        return node(name, "id-" + name, "noeviction", false, "everysec", "master");
    }

    @Test
    void fsyncAlwaysOnEveryNodeGivesDurableCountersAndNoWarnings() {
        Inspection inspection = new Inspection(List.of(durable("a"), durable("b"), durable("c")), true, false);
        assertThat(inspection.tokenGuarantee()).isEqualTo(TokenGuarantee.DURABLE_COUNTERS);
        assertThat(inspection.warnings()).isEmpty();
    }

    @Test
    void withoutPersistenceTokensCanGoBackUnlessTheClockFloorIsOn() {
        List<NodeReport> nodes = List.of(durable("a"), volatileOnly("b"), durable("c"));
        assertThat(new Inspection(nodes, true, false).tokenGuarantee()).isEqualTo(TokenGuarantee.LOST_ON_RESTART);
        assertThat(new Inspection(nodes, true, true).tokenGuarantee()).isEqualTo(TokenGuarantee.CLOCK_FLOOR);
        assertThat(new Inspection(nodes, true, false).warnings()).singleElement().asString()
                .startsWith("b: not persisted").contains("delayed restart").contains("counter restarts from zero");
    }

    @Test
    void allkeysEvictionLosesCountersEvenWithTheClockFloor() {
        NodeReport evicting = node("b", "id-b", "allkeys-lru", true, "always", "master");
        Inspection inspection = new Inspection(List.of(durable("a"), evicting, durable("c")), true, true);
        assertThat(inspection.tokenGuarantee()).isEqualTo(TokenGuarantee.LOST_ON_RESTART);
        assertThat(inspection.warnings()).singleElement().asString().contains("allkeys-lru")
                .contains("fencing counters");
    }

    @Test
    void volatileEvictionEndangersLocksButNotCounters() {
        NodeReport evicting = node("b", "id-b", "volatile-ttl", true, "always", "master");
        Inspection inspection = new Inspection(List.of(durable("a"), evicting, durable("c")), true, false);
        assertThat(inspection.tokenGuarantee()).isEqualTo(TokenGuarantee.DURABLE_COUNTERS);
        assertThat(inspection.warnings()).singleElement().asString().contains("can evict lock keys (two holders)");
    }

    @Test
    void flagsReplicasDuplicatesAndUnreachableNodes() {
        NodeReport replica = node("b", "id-b", "noeviction", true, "always", "slave");
        NodeReport sameAsA = node("c", "id-a", "noeviction", true, "always", "master");
        NodeReport down = NodeReport.unreachable("d", "Connection refused");
        Inspection inspection = new Inspection(List.of(durable("a"), replica, sameAsA, down), true, false);
        assertThat(inspection.tokenGuarantee()).isEqualTo(TokenGuarantee.UNKNOWN);
        assertThat(inspection.warnings()).containsExactly(
                "b: role is slave; Redlock needs independent masters (a failover can lose a lock, SPEC S5)",
                "c: the same server as a (same run_id); nodes must be independent",
                "d: not reachable (Connection refused)");
    }

    @Test
    void withoutFencingThereIsNoTokenGuarantee() {
        assertThat(new Inspection(List.of(durable("a")), false, false).tokenGuarantee())
                .isEqualTo(TokenGuarantee.NOT_FENCED);
    }
}
