package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** SPEC R8: extension counts only with a majority inside the new validity and never re-creates a key. */
@WithRedisNodes(5)
class ExtendIT {

    @Test
    void extendSucceedsWithAMajorityAndRenewsTheValidity(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Duration ttl = Duration.ofSeconds(10);
            Duration longer = Duration.ofSeconds(30);
            Lease lease = redlock.tryAcquire("extended", ttl).orElseThrow();
            nodes.node(0).kill();
            nodes.node(1).kill();
            assertThat(lease.extend(longer)).isTrue();
            // more than the first TTL could give, at most the new TTL less the drift
            assertThat(lease.remainingValidity()).isGreaterThan(ttl).isLessThanOrEqualTo(longer.minusMillis(302));
            for (int i = 2; i < 5; i++) { // the majority left: each of them confirmed
                assertThat(nodes.node(i).pttl("extended")).isGreaterThan(ttl.toMillis());
            }
            lease.release();
        }
    }

    @Test
    void extendFailsWithoutAMajorityAndDoesNotLengthenTheLease(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("minority", Duration.ofSeconds(5)).orElseThrow();
            Duration before = lease.remainingValidity();
            nodes.node(0).kill();
            nodes.node(1).kill();
            nodes.node(2).kill();
            assertThat(lease.extend(Duration.ofSeconds(30))).isFalse();
            assertThat(lease.remainingValidity()).isLessThanOrEqualTo(before);
        }
    }

    @Test
    void extendFailsAfterExpiryAndDoesNotRecreateTheKey(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("expired", units(5)).orElseThrow();
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> !lease.isValid() && ItSupport.absentEverywhere(nodes, "expired"));
            assertThat(lease.extend(Duration.ofSeconds(30))).isFalse();
            assertThat(ItSupport.absentEverywhere(nodes, "expired")).isTrue();
        }
    }

    @Test
    void extendNeverRecreatesAKeyThatVanishedFromTheNodes(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("vanished", Duration.ofSeconds(10)).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "vanished");
            // the keys expired early on the nodes (say, a clock jump) while the client still counts validity
            for (RedisServer node : nodes) {
                node.redis(r -> r.del("vanished"));
            }
            assertThat(lease.isValid()).isTrue();
            assertThat(lease.extend(Duration.ofSeconds(30))).isFalse();
            assertThat(ItSupport.absentEverywhere(nodes, "vanished")).isTrue();
        }
    }

    @Test
    void extendDoesNotTouchAnotherHoldersKey(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("taken-over", Duration.ofSeconds(10)).orElseThrow();
            for (RedisServer node : nodes) {
                node.redis(r -> r.set("taken-over", "someone-else", io.lettuce.core.SetArgs.Builder.px(60_000)));
            }
            assertThat(lease.extend(Duration.ofSeconds(120))).isFalse();
            for (RedisServer node : nodes) {
                assertThat(node.pttl("taken-over")).isLessThanOrEqualTo(60_000);
                assertThat(node.get("taken-over")).isEqualTo("someone-else");
            }
        }
    }

    @Test
    void aReleasedLeaseCannotBeExtended(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("done", Duration.ofSeconds(10)).orElseThrow();
            lease.release();
            assertThat(lease.extend(Duration.ofSeconds(10))).isFalse();
            assertThat(ItSupport.absentEverywhere(nodes, "done")).isTrue();
        }
    }
}
