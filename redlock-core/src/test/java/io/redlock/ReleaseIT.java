package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static io.redlock.ItSupport.valuesOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** SPEC S3, R5, R7: release everywhere, never someone else's key, nothing left behind. */
@WithRedisNodes(5)
class ReleaseIT {

    private static final Duration TTL = Duration.ofSeconds(10);

    @Test
    void afterAFailedAcquisitionNoKeyOfOursIsLeftOnAnyNode(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            // another client holds nodes 0 and 1; node 4 is down: we get 2 grants, one short of a majority
            nodes.node(0).redis(r -> r.set("contested", "other"));
            nodes.node(1).redis(r -> r.set("contested", "other"));
            nodes.node(4).kill();
            assertThat(redlock.tryAcquire("contested", TTL)).isEmpty();
            // the clean-up is awaited only until the attempt's per-node deadline: it may land a moment later
            awaitCleanedUp(nodes, "contested", 2, 3);
            assertThat(valuesOn(nodes, "contested", 0, 1, 2, 3)).containsExactly("other", "other", null, null);
        }
    }

    @Test
    void aMajorityHeldByAnotherClientLeavesItsKeysAlone(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            for (int i = 0; i < 3; i++) {
                int node = i;
                nodes.node(node).redis(r -> r.set("held", "other"));
            }
            assertThat(redlock.tryAcquire("held", TTL)).isEmpty();
            awaitCleanedUp(nodes, "held", 3, 4);
            assertThat(valuesOn(nodes, "held", 0, 1, 2, 3, 4)).containsExactly("other", "other", "other", null, null);
        }
    }

    @Test
    void releaseDeletesTheKeyOnEveryNodeAndIsIdempotent(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("released", TTL).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "released");
            lease.release();
            assertThat(lease.isValid()).isFalse();
            assertThat(ItSupport.absentEverywhere(nodes, "released")).isTrue();
            lease.release();
            lease.close();
            assertThat(redlock.tryAcquire("released", TTL)).isPresent();
        }
    }

    @Test
    void releaseAfterExpiryDoesNotDeleteANewerHoldersKey(RedisNodes nodes) {
        try (Redlock first = redlockOn(nodes).build(); Redlock second = redlockOn(nodes).build()) {
            Lease stale = first.tryAcquire("expiring", units(5)).orElseThrow();
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> ItSupport.absentEverywhere(nodes, "expiring"));
            assertThat(stale.isValid()).isFalse();
            Lease newer = second.tryAcquire("expiring", TTL).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "expiring");
            stale.release();
            assertThat(valuesOn(nodes, "expiring", 0, 1, 2, 3, 4))
                    .containsExactlyElementsOf(Collections.nCopies(5, newer.value()));
            newer.release();
        }
    }

    @Test
    void aLeaseCanBeReleasedFromAnotherThread(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("handed-over", TTL).orElseThrow();
            CompletableFuture.runAsync(lease::release).join();
            assertThat(ItSupport.absentEverywhere(nodes, "handed-over")).isTrue();
        }
    }

    @Test
    void releaseWithANodeDownStillCleansTheOthers(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("partial", TTL).orElseThrow();
            nodes.node(2).kill();
            lease.release();
            assertThat(ItSupport.absentEverywhere(nodes, "partial")).isTrue();
        }
    }

    /** Until the listed nodes have no {@code key}: the deletes repeat until they land, for as long as the TTL. */
    private static void awaitCleanedUp(RedisNodes nodes, String key, int... indexes) {
        await().atMost(TTL).pollInterval(Duration.ofMillis(10))
                .until(() -> valuesOn(nodes, key, indexes).stream().allMatch(java.util.Objects::isNull));
    }
}
