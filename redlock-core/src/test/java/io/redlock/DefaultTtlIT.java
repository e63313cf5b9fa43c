package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Every call that gives no TTL or wait uses the Redlock's defaults, whichever API it goes through. */
@WithRedisNodes(5)
class DefaultTtlIT {

    /**
     * Below the library's default (10 s), so a key that lives no longer shows the builder's; long enough that the
     * watchdog keeps it through a pause of a loaded machine (it extends with a third left).
     */
    private static final Duration DEFAULT_TTL = Duration.ofSeconds(5);

    private static long pttlOnNode0(RedisNodes nodes, String key) {
        return nodes.node(0).pttl(key);
    }

    @Test
    void withLockWithoutOptionsTakesTheBuildersDefaultTtl(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).defaultTtl(DEFAULT_TTL).build()) {
            long pttl = redlock.withLock("default-ttl-withlock", lease -> {
                ItSupport.awaitOnEveryNode(nodes, "default-ttl-withlock");
                return pttlOnNode0(nodes, "default-ttl-withlock");
            });
            assertThat(pttl).isBetween(1L, DEFAULT_TTL.toMillis());
        }
    }

    @Test
    void lockWithoutOptionsTakesTheBuildersDefaultTtl(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).defaultTtl(DEFAULT_TTL).build()) {
            RedlockLock lock = redlock.lock("default-ttl-lock");
            lock.lock();
            try {
                ItSupport.awaitOnEveryNode(nodes, "default-ttl-lock");
                assertThat(pttlOnNode0(nodes, "default-ttl-lock")).isBetween(1L, DEFAULT_TTL.toMillis());
            } finally {
                lock.unlock();
            }
        }
    }

    @Test
    void optionsWithoutATtlTakeTheBuildersDefaultTtl(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).defaultTtl(DEFAULT_TTL).build()) {
            LockOptions options = LockOptions.builder().maxWait(Duration.ofSeconds(1)).build();
            long pttl = redlock.withLock("default-ttl-options", options, lease -> {
                ItSupport.awaitOnEveryNode(nodes, "default-ttl-options");
                return pttlOnNode0(nodes, "default-ttl-options");
            });
            assertThat(pttl).isBetween(1L, DEFAULT_TTL.toMillis());
        }
    }

    @Test
    void withLockWithoutOptionsWaitsTheBuildersDefaultWait(RedisNodes nodes) {
        try (Redlock holder = redlockOn(nodes).build();
                Redlock waiter = redlockOn(nodes).defaultMaxWait(units(3)).build()) {
            Lease held = holder.tryAcquire("default-wait", Duration.ofSeconds(30)).orElseThrow();
            long start = System.nanoTime();
            assertThatThrownBy(() -> waiter.withLock("default-wait", lease -> null))
                    .isInstanceOf(LockNotAcquiredException.class).hasMessageContaining("PT0.3S");
            // it may give up one retry delay (at most 20 ms) early, when that delay would not fit; the wait ended it,
            // not the holder's lease
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(units(3).minusMillis(20),
                    Duration.ofSeconds(30));
            held.release();
        }
    }
}
