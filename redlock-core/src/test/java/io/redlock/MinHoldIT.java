package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A minimum hold time ({@link LockOptions#minHold()}, ShedLock's lockAtLeastFor) and {@link Lease#releaseAfter}: the
 * lock stays taken until then however soon the work ends, and no longer.
 */
@WithRedisNodes(3)
class MinHoldIT {

    /** Long enough that the checks made while it runs are made before it ends, on a loaded machine too. */
    private static final Duration MIN_HOLD = Duration.ofSeconds(5);
    /** Bounds the wait for the end of the minimum hold. */
    private static final Duration PAST_THE_HOLD = MIN_HOLD.plusSeconds(10);

    @Test
    void withLockKeepsTheLockTakenForTheMinimumHoldWhenTheWorkEndsSooner(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build(); Redlock other = redlockOn(nodes).build()) {
            long start = System.nanoTime();
            redlock.withLock("report", LockOptions.builder().ttl(Duration.ofSeconds(10)).minHold(MIN_HOLD).build(),
                    lease -> lease.fencingToken());
            assertThat(other.tryAcquire("report", Duration.ofSeconds(1))).as("taken after the work ended").isEmpty();
            assertThat(nodes.pttlOnAMajority("report")).as("kept for what is left of the minimum hold, not the TTL")
                    .isBetween(1L, MIN_HOLD.toMillis());
            await().atMost(PAST_THE_HOLD).pollInterval(Duration.ofMillis(20))
                    .until(() -> other.tryAcquire("report", Duration.ofSeconds(1)).map(lease -> {
                        lease.release();
                        return true;
                    }).orElse(false));
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isGreaterThanOrEqualTo(MIN_HOLD);
        }
    }

    @Test
    void workLongerThanTheMinimumHoldReleasesAtOnce(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Duration minHold = Duration.ofMillis(300);
            redlock.withLock("report", LockOptions.builder().ttl(Duration.ofSeconds(10)).minHold(minHold).build(),
                    lease -> {
                        long started = System.nanoTime();
                        await().until(() -> System.nanoTime() - started > minHold.toNanos());
                        return null;
                    });
            assertThat(ItSupport.absentEverywhere(nodes, "report")).isTrue();
        }
    }

    @Test
    void theLockAdapterKeepsTheLockForTheMinimumHoldAfterUnlock(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lock lock = redlock.lock("report", LockOptions.builder().ttl(Duration.ofSeconds(10)).minHold(MIN_HOLD)
                    .build());
            lock.lock();
            lock.unlock();
            assertThat(nodes.pttlOnAMajority("report")).isBetween(1L, MIN_HOLD.toMillis());
        }
    }

    @Test
    void releaseAfterReExpiresTheKeyEndsTheLeaseAndLeavesTheKeyToExpire(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("report", Duration.ofSeconds(10)).orElseThrow();
            lease.releaseAfter(MIN_HOLD);
            assertThat(lease.isValid()).isFalse();
            assertThat(lease.lossReason()).isEmpty();
            lease.release(); // a no-op now: the key stays until it expires
            assertThat(nodes.pttlOnAMajority("report")).isBetween(1L, MIN_HOLD.toMillis());
            await().atMost(PAST_THE_HOLD).until(() -> ItSupport.absentEverywhere(nodes, "report"));
        }
    }

    /**
     * A minimum hold is never shortened, however short: from 1 ms to three node timeouts, no node loses the key and no
     * other client gets the lock before the minimum has passed since the acquisition began. A check that sees either
     * after that moment proves nothing and is not made (the test thread may pause); one that sees either before it is a
     * violation.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 20, 200, 399, 600})
    void aShortMinimumHoldIsNeverEndedEarlyOnAnyNode(long millis, RedisNodes nodes) {
        Duration keep = Duration.ofMillis(millis);
        String resource = "short-hold-" + millis;
        try (Redlock redlock = redlockOn(nodes).build(); Redlock other = redlockOn(nodes).build()) {
            Lease lease = redlock.acquire(resource, Duration.ofSeconds(10), ItSupport.PATIENCE).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, resource);
            long start = System.nanoTime();
            lease.releaseAfter(keep);
            for (RedisServer node : nodes) {
                boolean held = node.get(resource) != null;
                long seen = System.nanoTime();
                assertThat(held || seen - start >= keep.toNanos()).as("%s lost the key %d ms after releaseAfter(%s)",
                        node.address(), (seen - start) / 1_000_000, keep).isTrue();
            }
            long deadline = System.nanoTime() + ItSupport.PATIENCE.toNanos();
            while (true) {
                Optional<Lease> next = other.tryAcquire(resource, Duration.ofSeconds(10));
                long returned = System.nanoTime();
                if (next.isPresent()) {
                    next.get().release();
                    assertThat(returned - start).as("another client got the lock before the minimum hold %s", keep)
                            .isGreaterThanOrEqualTo(keep.toNanos());
                    break;
                }
                assertThat(returned).as("the lock is free again within %s", ItSupport.PATIENCE).isLessThan(deadline);
            }
        }
    }
}
