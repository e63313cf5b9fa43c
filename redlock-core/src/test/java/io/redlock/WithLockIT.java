package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * withLock: keep the lease alive while work runs, release when it ends, say why when it could not start
 * ({@link WithLockLossIT}: tell the holder the moment it is lost).
 */
@WithRedisNodes(5)
class WithLockIT {

    private static final Logger log = LoggerFactory.getLogger(WithLockIT.class);
    private static final Duration TTL = Duration.ofMillis(600);
    /** A lease that runs out soon once it is no longer extended: for losses by expiry. */
    private static final LockOptions SHORT = LockOptions.builder().ttl(TTL).maxWait(Duration.ofSeconds(5)).build();
    static final Duration KEPT_TTL = Duration.ofSeconds(2);
    /**
     * A lease extended often (every half second or so), each extension due long before the validity ends: a pause of
     * more than a second of this JVM or its nodes is needed before a due extension comes too late, so a loss is the
     * one the test provokes (an extension refused), not an expiry of a late one.
     */
    static final LockOptions KEPT = LockOptions.builder().ttl(KEPT_TTL).maxWait(Duration.ofSeconds(5))
            .extendWhenRemaining(Duration.ofMillis(1_500)).build();
    /** For work whose lease is never in doubt. */
    private static final LockOptions LONG = LockOptions.builder().ttl(Duration.ofSeconds(30))
            .maxWait(Duration.ofSeconds(5)).build();

    @Test
    void returnsTheWorksResultAndReleases(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            String result = redlock.withLock("job", LONG, lease -> {
                assertThat(lease.isValid()).isTrue();
                return "done with token " + lease.fencingToken();
            });
            assertThat(result).startsWith("done with token ");
            assertThat(ItSupport.absentEverywhere(nodes, "job")).isTrue();
        }
    }

    @Test
    void extendsInTheBackgroundWhileWorkRunsLongerThanTheTtl(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build(); Redlock other = redlockOn(nodes).build()) {
            boolean stillValid = redlock.withLock("long-job", KEPT, lease -> {
                long end = System.nanoTime() + KEPT_TTL.multipliedBy(2).toNanos();
                while (System.nanoTime() < end) {
                    assertThat(other.tryAcquire("long-job", KEPT_TTL)).isEmpty();
                    Thread.sleep(units(1).toMillis());
                }
                return lease.isValid();
            });
            assertThat(stillValid).isTrue();
            assertThat(ItSupport.absentEverywhere(nodes, "long-job")).isTrue();
        }
    }

    @Test
    void noExtensionIsSentAfterRelease(RedisNodes nodes) {
        // the latest threshold allowed: TTL - drift (1 % + 2 ms) - per-node timeout, so extensions come one per-node
        // timeout apart, the first about a node timeout after the acquisition
        LockOptions eager = SHORT.toBuilder().extendWhenRemaining(
                TTL.minus(TTL.dividedBy(100)).minusMillis(2).minus(ItSupport.NODE_TIMEOUT)).build();
        // every extension round the library sends is observed when it ends, with how long it took: so when it was sent
        Map<String, Long> releasedAt = new ConcurrentHashMap<>();
        List<Map.Entry<String, Long>> sent = new CopyOnWriteArrayList<>();
        RedlockObserver extensions = new RedlockObserver() {
            @Override
            public void extension(String resource, boolean extended, Duration took) {
                sent.add(Map.entry(resource, System.nanoTime() - took.toNanos()));
            }
        };
        try (Redlock redlock = Observed.build(redlockOn(nodes), extensions)) {
            for (int i = 0; i < 20; i++) {
                // release right around the moments extensions are due
                long hold = i * ItSupport.NODE_TIMEOUT.toMillis() / 10;
                redlock.withLock("released-" + i, eager, lease -> {
                    Thread.sleep(hold);
                    return null;
                });
                releasedAt.put("released-" + i, System.nanoTime());
            }
            // a timer left behind by a release would fire within one extension interval
            await().pollDelay(TTL.multipliedBy(2)).atMost(TTL.multipliedBy(3)).until(() -> true);
        }
        assertThat(sent).as("extensions sent while the locks were held").isNotEmpty();
        assertThat(sent).as("extensions sent after their lock's release").noneMatch(e -> e.getValue()
                - releasedAt.get(e.getKey()) > 0);
    }

    @Test
    void notAcquiredInTimeIsATypedError(RedisNodes nodes) {
        try (Redlock holder = redlockOn(nodes).build(); Redlock waiter = redlockOn(nodes).build()) {
            holder.tryAcquire("taken", Duration.ofSeconds(10)).orElseThrow();
            assertThatThrownBy(() -> waiter.withLock("taken", SHORT.toBuilder().maxWait(units(2)).build(),
                    lease -> "never runs"))
                    .isInstanceOfSatisfying(LockNotAcquiredException.class, busy -> assertThat(busy.nodesUnavailable())
                            .as("held by another client: contention, not an outage").isFalse())
                    .hasMessageContaining("'taken'");
        }
    }

    @Test
    void notAcquiredBecauseAMajorityIsDownSaysSo(RedisNodes nodes) {
        try (Redlock waiter = redlockOn(nodes).build()) {
            nodes.node(0).kill();
            nodes.node(1).kill();
            nodes.node(2).kill();
            assertThatThrownBy(() -> waiter.withLock("outage", SHORT.toBuilder().maxWait(units(2)).build(),
                    lease -> "never runs"))
                    .isInstanceOfSatisfying(LockNotAcquiredException.class, down -> assertThat(down.nodesUnavailable())
                            .isTrue())
                    .hasMessageContaining("too few nodes answered");
        }
    }

    @Test
    void withLockAsyncReportsNotAcquiredAsLockNotAcquiredException(RedisNodes nodes) {
        try (Redlock holder = redlockOn(nodes).build(); Redlock waiter = redlockOn(nodes).build()) {
            holder.tryAcquire("taken-async", Duration.ofSeconds(10)).orElseThrow();
            AtomicBoolean ran = new AtomicBoolean();
            CompletableFuture<String> result = waiter.<String>withLockAsync("taken-async",
                    SHORT.toBuilder().maxWait(units(2)).build(), lease -> {
                        ran.set(true);
                        return CompletableFuture.completedFuture("never");
                    }).toCompletableFuture();
            assertThat(result).failsWithin(Duration.ofSeconds(10)).withThrowableThat()
                    .havingCause().isInstanceOf(LockNotAcquiredException.class).withMessageContaining("'taken-async'");
            assertThat(ran).isFalse();
        }
    }

    @Test
    void exceptionsFromTheWorkPassThroughAndTheLockIsReleased(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            assertThatThrownBy(() -> redlock.withLock("failing", SHORT, lease -> {
                throw new IllegalStateException("boom");
            })).isInstanceOf(IllegalStateException.class).hasMessage("boom");
            assertThatThrownBy(() -> redlock.withLock("failing", SHORT, lease -> {
                throw new IOException("disk");
            })).isInstanceOf(LeaseWorkException.class).hasCauseInstanceOf(IOException.class);
            assertThat(ItSupport.absentEverywhere(nodes, "failing")).isTrue();
        }
    }
}
