package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.internal.protocol.Keys;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A majority that stalls longer than any fixed retry window (a frozen process, a slow fsync, a paused VM) applies our
 * queued writes when it resumes: the library keeps deleting until the key would have expired anyway, so nothing is
 * left behind for the rest of its TTL — for every kind of lock.
 */
@WithRedisNodes(5)
class StallCleanupIT {

    private static final Duration TTL = Duration.ofSeconds(60);
    private static final Duration STALL = Duration.ofSeconds(8);
    private static final Duration GONE_WITHIN = Duration.ofSeconds(2);
    /** When a command to a frozen node has timed out for the client library, closing that connection. */
    private static final Duration CONNECTION_DROPPED_AFTER = ItSupport.NODE_TIMEOUT.multipliedBy(10).plus(ItSupport.units(3));

    private List<RedisServer> frozen = List.of();

    @AfterEach
    void thaw() {
        frozen.stream().filter(RedisServer::isPaused).forEach(RedisServer::resume);
    }

    /** Freezes nodes 0-2 for {@link #STALL}, running {@code during} right after freezing them. */
    private void stallAMajority(RedisNodes nodes, Runnable during) {
        frozen = nodes.servers().subList(0, 3);
        frozen.forEach(RedisServer::pause);
        long resumeAt = System.nanoTime() + STALL.toNanos();
        during.run();
        await().atMost(STALL.plusSeconds(5)).pollInterval(Duration.ofMillis(50))
                .until(() -> System.nanoTime() - resumeAt >= 0);
        frozen.forEach(RedisServer::resume);
    }

    private static void assertGoneFromEveryNodeWithin(RedisNodes nodes, String key, Duration within) {
        await().atMost(within).pollInterval(Duration.ofMillis(20))
                .until(() -> nodes.servers().stream().allMatch(node -> node.get(key) == null));
    }

    @Test
    void aFailedAttemptLeavesNoKeyAfterAStalledMajorityResumes(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            stallAMajority(nodes, () -> assertThat(redlock.tryAcquire("stalled-attempt", TTL)).isEmpty());
            assertGoneFromEveryNodeWithin(nodes, "stalled-attempt", GONE_WITHIN);
        }
    }

    @Test
    void everyKindLeavesNoKeyAfterAStalledMajorityResumesFromAttemptsThatFailedOrReleasesSentMeanwhile(
            RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            MultiLease several = redlock.tryAcquireAll(List.of("stalled-kinds:held-a", "stalled-kinds:held-b"), TTL)
                    .orElseThrow();
            List<Lease> held = List.of(redlock.readWriteLock("stalled-kinds:held-r").tryAcquireRead(TTL).orElseThrow(),
                    redlock.readWriteLock("stalled-kinds:held-w").tryAcquireWrite(TTL).orElseThrow(),
                    redlock.semaphore("stalled-kinds:held-p", 2).tryAcquire(TTL).orElseThrow());
            for (String key : List.of("held-a", "held-b", "held-r", "held-w", "held-p")) {
                ItSupport.awaitOnEveryNode(nodes, "stalled-kinds:" + key);
            }
            stallAMajority(nodes, () -> {
                assertThat(redlock.tryAcquireAll(List.of("stalled-kinds:a", "stalled-kinds:b"), TTL)).isEmpty();
                assertThat(redlock.readWriteLock("stalled-kinds:r").tryAcquireRead(TTL)).isEmpty();
                assertThat(redlock.readWriteLock("stalled-kinds:w").tryAcquireWrite(TTL)).isEmpty();
                assertThat(redlock.semaphore("stalled-kinds:p", 2).tryAcquire(TTL)).isEmpty();
                held.forEach(lease -> assertThat(lease.extend(TTL)).isFalse());
                assertThat(several.extend(TTL)).isFalse();
                long dropped = System.nanoTime() + CONNECTION_DROPPED_AFTER.toNanos();
                await().atMost(STALL).until(() -> System.nanoTime() - dropped >= 0);
                held.forEach(Lease::release);
                several.release();
            });
            await().atMost(GONE_WITHIN).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
                for (RedisServer node : nodes) {
                    List<String> keys = node.redis(r -> r.keys("stalled-kinds:*"));
                    assertThat(keys).as("keys left on %s", node)
                            .allMatch(key -> key.endsWith(Keys.FENCE_SUFFIX));
                }
            });
        }
    }

    @Test
    void aReleaseIssuedWhileAMajorityIsStalledLandsWhenItResumes(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("stalled-release", TTL).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "stalled-release");
            stallAMajority(nodes, () -> {
                // an extension (as a watchdog sends) times out on the frozen nodes, which drops their connections
                assertThat(lease.extend(TTL)).isFalse();
                long dropped = System.nanoTime() + CONNECTION_DROPPED_AFTER.toNanos();
                await().atMost(STALL).until(() -> System.nanoTime() - dropped >= 0);
                lease.release();
            });
            assertGoneFromEveryNodeWithin(nodes, "stalled-release", GONE_WITHIN);
        }
    }
}
