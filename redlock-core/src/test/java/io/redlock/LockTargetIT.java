package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code withLock} of every kind of lock ({@link LockTarget}) on three real nodes: the work runs holding what the
 * target names (checked from another client and with raw {@code SET NX}), everything is released after, and a bad
 * target is refused before anything is written; every kind is kept alive while work outlasts its TTL.
 */
@WithRedisNodes(3)
class LockTargetIT {

    private static final LockOptions OPTIONS = LockOptions.builder().ttl(Duration.ofSeconds(10))
            .maxWait(Duration.ZERO).build();
    private static final Duration TTL = Duration.ofSeconds(10);

    @Test
    void aLockOfSeveralResourcesHoldsEachOfThemWhileTheWorkRuns(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build(); Redlock other = redlockOn(nodes).build()) {
            long token = redlock.withLock(LockTarget.all(List.of("target:a", "target:b")), OPTIONS, lease -> {
                assertThat(lease.resource()).isEqualTo("[target:a, target:b]");
                assertThat(other.tryAcquire("target:a", TTL)).isEmpty();
                assertThat(other.tryAcquire("target:b", TTL)).isEmpty();
                // each resource's key holds the lease's value on a majority (a grant that came too late, or whose
                // connection was dropped on a timeout, may leave the other nodes without it)
                for (String resource : List.of("target:a", "target:b")) {
                    assertThat(ItSupport.holding(nodes, resource, lease.value())).as(resource)
                            .isGreaterThanOrEqualTo(nodes.size() / 2 + 1);
                }
                return lease.fencingToken();
            });
            assertThat(token).isPositive();
            assertThat(ItSupport.absentEverywhere(nodes, "target:a")).isTrue();
            assertThat(ItSupport.absentEverywhere(nodes, "target:b")).isTrue();
        }
    }

    @Test
    void aReadLockIsSharedWithReadersAndExcludesAWriter(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build(); Redlock other = redlockOn(nodes).build()) {
            redlock.withLock(LockTarget.read("target:r"), OPTIONS, lease -> {
                RedlockReadWriteLock shared = other.readWriteLock("target:r");
                Lease reader = shared.tryAcquireRead(TTL).orElseThrow();
                assertThat(shared.tryAcquireWrite(TTL)).isEmpty();
                reader.release();
                return null;
            });
            assertThat(ItSupport.absentEverywhere(nodes, "target:r")).isTrue();
        }
    }

    @Test
    void aWriteLockExcludesReadersAndIsTheResourcesPlainLock(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build(); Redlock other = redlockOn(nodes).build()) {
            redlock.withLock(LockTarget.write("target:w"), OPTIONS, lease -> {
                assertThat(other.readWriteLock("target:w").tryAcquireRead(TTL)).isEmpty();
                assertThat(other.tryAcquire("target:w", TTL)).isEmpty();
                return null;
            });
            assertThat(ItSupport.absentEverywhere(nodes, "target:w")).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"several", "read", "write", "permit"})
    void everyKindIsKeptAliveWhileTheWorkRunsLongerThanItsTtl(String kind, RedisNodes nodes) {
        // extended at 1.2 s left (about every 300 ms): only a stall of over a second loses the lease, not a pause of
        // a loaded machine (at 600 ms, a third left: 200 ms)
        Duration ttl = Duration.ofMillis(1_500);
        LockOptions shortTtl = LockOptions.builder().ttl(ttl).extendWhenRemaining(Duration.ofMillis(1_200))
                .maxWait(Duration.ZERO).build();
        String resource = "kept:" + kind;
        LockTarget target = switch (kind) {
            case "several" -> LockTarget.all(List.of(resource, resource + ":also"));
            case "read" -> LockTarget.read(resource);
            case "write" -> LockTarget.write(resource);
            default -> LockTarget.permit(resource, 1);
        };
        try (Redlock redlock = redlockOn(nodes).build(); Redlock other = redlockOn(nodes).build()) {
            // what the target excludes while it is held
            java.util.function.Supplier<Boolean> excluded = () -> switch (kind) {
                case "several", "write" -> other.tryAcquire(resource, ttl).isEmpty();
                case "read" -> other.readWriteLock(resource).tryAcquireWrite(ttl).isEmpty();
                default -> other.semaphore(resource, 1).tryAcquire(ttl).isEmpty();
            };
            boolean stillValid = redlock.withLock(target, shortTtl, lease -> {
                long end = System.nanoTime() + ttl.multipliedBy(2).toNanos();
                while (System.nanoTime() < end) {
                    assertThat(excluded.get()).as("%s excluded at %s", resource, lease.remainingValidity()).isTrue();
                    Thread.sleep(ItSupport.units(1).toMillis());
                }
                return lease.isValid();
            });
            assertThat(stillValid).isTrue();
            assertThat(ItSupport.absentEverywhere(nodes, resource)).isTrue();
        }
    }

    @Test
    void aBusyTargetIsNotAcquiredAndTheErrorNamesIt(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build(); Redlock other = redlockOn(nodes).build()) {
            Lease held = other.tryAcquire("target:busy:b", TTL).orElseThrow();
            assertThatThrownBy(() -> redlock.withLock(LockTarget.all(List.of("target:busy:a", "target:busy:b")),
                    OPTIONS, lease -> null))
                    .isInstanceOf(LockNotAcquiredException.class)
                    .hasMessageContaining("[target:busy:a, target:busy:b]");
            held.release();
        }
    }

    @Test
    void badTargetsAreTypedErrorsAndWriteNothing(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            for (LockTarget bad : List.of(LockTarget.all(List.of()), LockTarget.all(List.of("x", "x")),
                    LockTarget.all(Arrays.asList("x", null)), LockTarget.read(" "), LockTarget.write(null),
                    LockTarget.of(""))) {
                assertThatThrownBy(() -> redlock.withLock(bad, OPTIONS, lease -> null)).as(bad.toString())
                        .isInstanceOf(RedlockConfigException.class);
            }
            for (RedisServer node : nodes) {
                Long keys = node.redis(r -> r.dbsize());
                assertThat(keys).isZero();
            }
        }
    }
}
