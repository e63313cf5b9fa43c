package io.redlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ShedLock's {@code lockAtLeastFor} is never shortened, however short: from 1 ms to three node timeouts, a lock
 * unlocked at once is refused to the next {@code lock()} until {@code lockAtLeastFor} has passed since the first
 * {@code lock()} began. A next {@code lock()} that succeeds after that moment proves nothing; one that succeeds before
 * it is a violation (a pause of the test thread can only hide one, never make one up).
 */
@WithRedisNodes(5)
class LockAtLeastForIT {

    /** As in the provider's other tests: long enough for a loaded 2-core machine. */
    private static final Duration NODE_TIMEOUT = Duration.ofMillis(250);
    private static final Duration AT_MOST = Duration.ofMinutes(5);
    /** Bounds the wait for the lock to be free again: far above every lockAtLeastFor tried. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    @ParameterizedTest
    @ValueSource(longs = {1, 90, 250, 499, 750})
    void anUnlockBeforeLockAtLeastForKeepsTheLockTakenUntilThen(long millis, RedisNodes nodes) {
        Duration atLeast = Duration.ofMillis(millis);
        String name = "at-least-" + millis;
        try (Redlock redlock = Redlock.builder().nodes(nodes.uris()).nodeTimeout(NODE_TIMEOUT).build()) {
            RedlockLockProvider provider = new RedlockLockProvider(redlock, "shedlock:");
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            long start;
            Optional<SimpleLock> first;
            do { // a round may miss the majority on a loaded machine: the lock is free, so one comes
                start = System.nanoTime();
                first = provider.lock(new LockConfiguration(Instant.now(), name, AT_MOST, atLeast));
            } while (first.isEmpty() && start - deadline < 0);
            first.orElseThrow().unlock();
            while (true) {
                Optional<SimpleLock> next = provider.lock(new LockConfiguration(Instant.now(), name, AT_MOST,
                        Duration.ZERO));
                long returned = System.nanoTime();
                if (next.isPresent()) {
                    next.get().unlock();
                    assertThat(returned - start).as("locked again before lockAtLeastFor %s", atLeast)
                            .isGreaterThanOrEqualTo(atLeast.toNanos());
                    return;
                }
                assertThat(returned - deadline).as("free again within %s", PATIENCE).isNegative();
            }
        }
    }
}
