package io.redlock;

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
        // one node of one: it must answer every time
        try (Redlock first = EveryNodeAnswers.redlockOn(nodes).build();
                Redlock second = EveryNodeAnswers.redlockOn(nodes).build()) {
            assertThat(first.config().quorum()).isEqualTo(1);
            long start = System.nanoTime();
            Lease lease = first.tryAcquire("single", Duration.ofSeconds(10)).orElseThrow();
            assertThat(nodes.node(0).get("single")).isEqualTo(lease.value());
            assertThat(nodes.node(0).pttl("single")).as("set with the TTL").isBetween(
                    10_000L - ItSupport.elapsedMillis(start) - 2, 10_000L);
            assertThat(second.tryAcquire("single", Duration.ofSeconds(10))).isEmpty();
            start = System.nanoTime();
            assertThat(lease.extend(Duration.ofSeconds(20))).isTrue();
            assertThat(nodes.node(0).pttl("single")).as("extended to the new TTL").isBetween(
                    20_000L - ItSupport.elapsedMillis(start) - 2, 20_000L);
            lease.release();
            assertThat(nodes.node(0).get("single")).isNull();
            assertThat(second.tryAcquire("single", Duration.ofSeconds(10))).isPresent();
        }
    }

    @Test
    void aDownSingleNodeMeansNoLock(RedisNodes nodes) {
        try (Redlock redlock = ItSupport.redlockOn(nodes).build()) {
            nodes.node(0).kill();
            assertThat(redlock.tryAcquire("single-down", Duration.ofSeconds(10))).isEmpty();
        }
    }
}
