package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;

/**
 * The registry's own contract: one lock per key, renewal by the holder only (for the TTL, or one given), unused locks
 * forgotten, String keys.
 */
@WithRedisNodes(3)
class RedlockLockRegistryIT {

    @Test
    void oneLockPerKeyRenewedByItsHolderAndForgottenWhenUnused(RedisNodes nodes) {
        // a node timeout a loaded machine keeps to: a slow reply must not fail a renewal
        try (Redlock redlock = Redlock.builder().nodes(nodes.uris()).nodeTimeout(Duration.ofMillis(500)).build()) {
            RedlockLockRegistry registry = new RedlockLockRegistry(redlock,
                    LockOptions.builder().ttl(Duration.ofSeconds(30)).build(), "registry:");
            Lock lock = registry.obtain("orders");
            assertThat(registry.obtain("orders")).isSameAs(lock);
            assertThatThrownBy(() -> registry.renewLock("orders")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not held by this thread");
            lock.lock();
            try {
                registry.renewLock("orders");
                assertThat(nodes.pttlOnAMajority("registry:orders")).isGreaterThan(15_000L);
                // Spring Integration 7's renewal with a TTL: above the lock's own TTL, so only the renewal set it
                registry.renewLock("orders", Duration.ofSeconds(120));
                assertThat(nodes.pttlOnAMajority("registry:orders")).isGreaterThan(60_000L);
                registry.expireUnusedOlderThan(0);
                assertThat(registry.obtain("orders")).as("held: kept").isSameAs(lock);
            } finally {
                lock.unlock();
            }
            registry.expireUnusedOlderThan(0);
            assertThat(registry.obtain("orders")).as("unused: forgotten").isNotSameAs(lock);
            assertThatThrownBy(() -> registry.obtain(42)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
