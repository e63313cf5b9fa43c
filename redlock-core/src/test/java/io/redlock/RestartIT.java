package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * SPEC R9: a node that restarts without its keys can break mutual exclusion; keeping it down longer than the TTL
 * (delayed restart) keeps it.
 */
@WithRedisNodes(5)
class RestartIT {

    /**
     * Makes {@code holder} hold exactly nodes 0, 1 and 2: nodes 3 and 4 are taken by a stale holder meanwhile. The
     * holder needs all three of its nodes to answer ({@link EveryNodeAnswers}).
     */
    private static Lease holdExactlyFirstThree(RedisNodes nodes, Redlock holder, String resource, Duration ttl) {
        nodes.node(3).redis(r -> r.set(resource, "stale"));
        nodes.node(4).redis(r -> r.set(resource, "stale"));
        Lease lease = holder.tryAcquire(resource, ttl).orElseThrow();
        nodes.node(3).redis(r -> r.del(resource));
        nodes.node(4).redis(r -> r.del(resource));
        assertThat(ItSupport.valuesOn(nodes, resource, 0, 1, 2, 3, 4))
                .containsExactly(lease.value(), lease.value(), lease.value(), null, null);
        return lease;
    }

    @Test
    void immediateRestartOfANodeLetsASecondClientHoldTheSameLock(RedisNodes nodes) {
        try (Redlock a = EveryNodeAnswers.redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            Lease first = holdExactlyFirstThree(nodes, a, "r9", Duration.ofSeconds(30));
            nodes.node(2).restart(); // crash and come back at once, without the key
            Lease second = await().atMost(Duration.ofSeconds(10)).pollInterval(units(1))
                    .until(() -> b.tryAcquire("r9", Duration.ofSeconds(30)).orElse(null), l -> l != null);
            // the hazard the spec describes: two holders, both inside their validity
            assertThat(first.isValid()).isTrue();
            assertThat(second.isValid()).isTrue();
            assertThat(ItSupport.valuesOn(nodes, "r9", 2, 3, 4)).containsOnly(second.value());
        }
    }

    @Test
    void delayedRestartPastTheTtlKeepsMutualExclusion(RedisNodes nodes) {
        // long enough to outlive the checks of holdExactlyFirstThree on a loaded machine
        Duration ttl = Duration.ofSeconds(3);
        try (Redlock a = EveryNodeAnswers.redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            Lease first = holdExactlyFirstThree(nodes, a, "r9-delayed", ttl);
            CompletableFuture<Void> back = nodes.node(2).restartAfter(ttl.plus(units(5)));
            // node 2 is down: until the first lease's keys expire on nodes 0 and 1, only 3 and 4 can grant
            Lease second = b.acquire("r9-delayed", ttl, Duration.ofSeconds(20)).orElseThrow();
            long secondHeld = System.nanoTime();
            // the validity windows do not overlap: the second holds the lock only after the first's validity ended
            // (its round may have started a little before: the grant that decided it came after the expiry)
            assertThat(secondHeld - first.validUntil()).isPositive();
            assertThat(first.isValid()).isFalse();
            back.join();
        }
    }

    @Test
    void scriptsWorkAfterARestartThroughTheNoscriptFallback(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            redlock.tryAcquire("scripted", Duration.ofSeconds(10)).orElseThrow().release();
            for (RedisServer node : nodes) {
                node.restart(); // the script cache is empty now
            }
            Lease lease = await().atMost(Duration.ofSeconds(10)).pollInterval(units(1))
                    .until(() -> redlock.tryAcquire("scripted", Duration.ofSeconds(10)).orElse(null), l -> l != null);
            assertThat(lease.extend(Duration.ofSeconds(20))).isTrue();
            lease.release();
            assertThat(ItSupport.absentEverywhere(nodes, "scripted")).isTrue();
            for (RedisServer node : nodes) {
                String stats = node.redis(r -> r.info("commandstats"));
                assertThat(stats).as("EVAL used after NOSCRIPT on %s", node).contains("cmdstat_eval:calls=");
            }
        }
    }
}
