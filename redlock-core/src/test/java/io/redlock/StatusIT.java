package io.redlock;

import static io.redlock.EveryNodeAnswers.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.ResourceStatus.Verdict;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * redlock.status(resource) reads the lock, its counter and its queue from real nodes, and changes nothing. The checks
 * are of every node's report, so every live node must answer ({@link EveryNodeAnswers}).
 */
@WithRedisNodes(5)
class StatusIT {

    @Test
    void aFreeResourceIsFreeEverywhere(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            ResourceStatus status = redlock.status("nobody");
            assertThat(status.verdict()).isEqualTo(Verdict.FREE);
            assertThat(status.answered()).isEqualTo(5);
            assertThat(status.nodes()).allSatisfy(node -> {
                assertThat(node.holder()).isEmpty();
                assertThat(node.ttl()).isEmpty();
                assertThat(node.fence()).isEmpty();
                assertThat(node.queueLength()).isZero();
            });
        }
    }

    @Test
    void aHeldResourceShowsItsHolderTtlAndCounterWithAPrefix(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).keyPrefix("app:").build()) {
            Lease lease = redlock.tryAcquire("report", Duration.ofSeconds(30)).orElseThrow();
            org.awaitility.Awaitility.await().atMost(ItSupport.units(50))
                    .until(() -> nodes.servers().stream().allMatch(s -> s.get("app:report") != null));
            ResourceStatus status = redlock.status("report");
            assertThat(status.verdict()).isEqualTo(Verdict.HELD);
            assertThat(status.holder()).contains(lease.value());
            assertThat(status.nodes()).allSatisfy(node -> {
                assertThat(node.holder()).contains(lease.value());
                assertThat(node.ttl()).hasValueSatisfying(ttl -> assertThat(ttl).isBetween(Duration.ofSeconds(25),
                        Duration.ofSeconds(30)));
                assertThat(node.fence()).hasValue(lease.fencingToken());
            });
            assertThat(nodes.node(0).get("app:report")).isEqualTo(lease.value()); // read-only
        }
    }

    @Test
    void readersAndPermitHoldersAreShownBesideTheMarkTheyHold(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Duration ttl = Duration.ofSeconds(30);
            Lease r1 = redlock.readWriteLock("shown:read").tryAcquireRead(ttl).orElseThrow();
            Lease r2 = redlock.readWriteLock("shown:read").tryAcquireRead(ttl).orElseThrow();
            Lease p1 = redlock.semaphore("shown-permits", 3).tryAcquire(ttl).orElseThrow();
            org.awaitility.Awaitility.await().atMost(ItSupport.units(50)).until(() -> nodes.servers().stream()
                    .allMatch(s -> s.get("shown:read") != null && s.get("shown-permits") != null));
            ResourceStatus read = redlock.status("shown:read");
            assertThat(read.holder()).contains("redlock:readers");
            assertThat(read.readLocked()).isTrue();
            assertThat(read.permits()).isEmpty();
            assertThat(read.sharedBy()).containsExactlyInAnyOrder(r1.value(), r2.value());
            assertThat(read.nodes()).allSatisfy(node -> assertThat(node.sharedBy())
                    .containsExactlyInAnyOrder(r1.value(), r2.value()));
            ResourceStatus permits = redlock.status("shown-permits");
            assertThat(permits.holder()).contains("redlock:permits:3");
            assertThat(permits.permits()).hasValue(3);
            assertThat(permits.readLocked()).isFalse();
            assertThat(permits.sharedBy()).containsExactly(p1.value());
            assertThat(permits.nodes()).allSatisfy(node -> assertThat(node.sharedBy()).containsExactly(p1.value()));
            assertThat(redlock.status("report").nodes()).allSatisfy(node -> assertThat(node.sharedBy()).isEmpty());
            r1.release();
            r2.release();
            p1.release();
        }
    }

    @Test
    void aQueuedWaiterIsShownAndASplitIsNamed(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            nodes.node(0).redis(r -> r.set("split", "a"));
            nodes.node(1).redis(r -> r.set("split", "a"));
            nodes.node(2).redis(r -> r.set("split", "b"));
            nodes.node(3).redis(r -> r.set("split", "b"));
            nodes.node(4).redis(r -> r.zadd(ItSupport.queueOf("split"), 1, "waiter-1"));
            ResourceStatus status = redlock.status("split");
            assertThat(status.verdict()).isEqualTo(Verdict.SPLIT);
            assertThat(status.holder()).isEmpty();
            assertThat(status.nodes().get(4).queueLength()).isEqualTo(1);
            assertThat(status.nodes().get(4).queueHead()).contains("waiter-1");
            assertThat(status.nodes().get(0).ttl()).isEmpty(); // a key without expiry has no TTL to show
        }
    }

    @Test
    void withoutAMajorityTheVerdictIsUnknownAndTheDownNodesAreNamed(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            nodes.node(0).kill();
            nodes.node(1).pause();
            nodes.node(2).kill();
            try {
                ResourceStatus status = redlock.status("anything");
                assertThat(status.verdict()).isEqualTo(Verdict.UNKNOWN);
                assertThat(status.answered()).isEqualTo(2);
                assertThat(status.nodes().get(1).problem()).isPresent();
                assertThat(status.nodes().get(1).node()).isEqualTo(nodes.node(1).address());
                assertThatThrownBy(() -> redlock.status(" ")).isInstanceOf(RedlockConfigException.class);
            } finally {
                nodes.node(1).resume();
            }
        }
    }
}
