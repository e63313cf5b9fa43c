package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** SPEC S1–S4: one node is the single-instance lock, with the same API. */
@WithRedisNodes(1)
class SingleNodeIT {

    @Test
    void oneNodeIsTheSingleInstanceLock(RedisNodes nodes) {
        try (Redlock first = redlockOn(nodes).build(); Redlock second = redlockOn(nodes).build()) {
            assertThat(first.config().quorum()).isEqualTo(1);
            Lease lease = first.tryAcquire("single", Duration.ofSeconds(10)).orElseThrow();
            assertThat(nodes.node(0).get("single")).isEqualTo(lease.value());
            assertThat(nodes.node(0).pttl("single")).isBetween(9_000L, 10_000L);
            assertThat(second.tryAcquire("single", Duration.ofSeconds(10))).isEmpty();
            assertThat(lease.extend(Duration.ofSeconds(20))).isTrue();
            assertThat(nodes.node(0).pttl("single")).isGreaterThan(19_000L);
            lease.release();
            assertThat(nodes.node(0).get("single")).isNull();
            assertThat(second.tryAcquire("single", Duration.ofSeconds(10))).isPresent();
        }
    }

    @Test
    void aDownSingleNodeMeansNoLock(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            nodes.node(0).kill();
            assertThat(redlock.tryAcquire("single-down", Duration.ofSeconds(10))).isEmpty();
        }
    }
}
