package io.redlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.RedlockConfigException;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * ShedLock's provider contract (the scenarios of its own provider tests, written here against real nodes): lock,
 * no second lock while held, independent names, expiry after lockAtMostFor, lockAtLeastFor kept after an early
 * unlock, extension of a held, an unlocked and an expired lock, many names at once; plus the fencing token.
 */
@WithRedisNodes(3)
class RedlockLockProviderIT {

    private static final String NAME = "nightly-report";
    private static final Duration LONG = Duration.ofMinutes(5);
    /**
     * Long enough for a loaded 2-core machine (40 ms was not: all three nodes timed out on one extension while other
     * modules' tests ran beside it); the short lockAtMostFor and lockAtLeastFor below are above it, or two of it.
     */
    private static final Duration NODE_TIMEOUT = Duration.ofMillis(250);
    /** A lockAtMostFor that runs out while a check waits, and a lockAtLeastFor an unlock may come after. */
    private static final Duration SHORT = Duration.ofMillis(600);
    /**
     * How long a check may take after a key was set to expire at {@link #SHORT} (or the delete of an unlock was
     * sent): generous for a loaded machine, and far below {@link #LONG}, so what it sees is that expiry or that
     * delete, not the end of a long lock.
     */
    private static final Duration SETTLE = Duration.ofSeconds(20);
    /** A lockAtLeastFor that outlives the checks made after an early unlock, however slow they are. */
    private static final Duration AT_LEAST = Duration.ofSeconds(5);

    private RedisNodes nodes;
    private Redlock redlock;
    private RedlockLockProvider provider;

    @BeforeEach
    void connect(RedisNodes nodes) {
        this.nodes = nodes;
        this.redlock = Redlock.builder().nodes(nodes.uris()).nodeTimeout(NODE_TIMEOUT).build();
        this.provider = new RedlockLockProvider(redlock, "shedlock:");
    }

    @AfterEach
    void close() {
        redlock.close();
    }

    @Test
    void aLockIsOnAMajorityUntilUnlocked() {
        SimpleLock lock = provider.lock(config(NAME, LONG, Duration.ZERO)).orElseThrow();
        assertLocked(NAME);
        lock.unlock();
        assertUnlocked(NAME);
    }

    @Test
    void aSecondLockOnTheSameNameIsRefusedWhileTheFirstIsHeld() {
        SimpleLock lock = provider.lock(config(NAME, LONG, Duration.ZERO)).orElseThrow();
        assertThat(provider.lock(config(NAME, LONG, Duration.ZERO))).isEmpty();
        lock.unlock();
    }

    @Test
    void twoNamesAreTwoIndependentLocks() {
        SimpleLock first = provider.lock(config(NAME, LONG, Duration.ZERO)).orElseThrow();
        SimpleLock second = provider.lock(config("other", LONG, Duration.ZERO)).orElseThrow();
        first.unlock();
        second.unlock();
        assertUnlocked(NAME);
        assertUnlocked("other");
    }

    @Test
    void aNameCanBeLockedAgainRightAfterItsUnlock() {
        for (int i = 0; i < 10; i++) {
            SimpleLock lock = provider.lock(config(NAME, LONG, Duration.ZERO)).orElseThrow();
            assertThat(provider.lock(config(NAME, LONG, Duration.ZERO))).isEmpty();
            lock.unlock();
        }
    }

    @Test
    void aLockNobodyUnlocksExpiresAfterLockAtMostFor() {
        provider.lock(config(NAME, SHORT, Duration.ZERO)).orElseThrow();
        long start = System.nanoTime();
        await().atMost(SHORT.plus(SETTLE)).pollInterval(Duration.ofMillis(10)).until(() -> unlocked(NAME));
        LoggerFactory.getLogger(RedlockLockProviderIT.class).info("expired {} ms after the lock (lockAtMostFor {} ms)",
                Duration.ofNanos(System.nanoTime() - start).toMillis(), SHORT.toMillis());
        provider.lock(config(NAME, SHORT, Duration.ZERO)).orElseThrow().unlock();
    }

    /** The keys stay until lockAtLeastFor after the lock was taken, then the name is free again. */
    @Test
    void anUnlockBeforeLockAtLeastForKeepsTheLockUntilThen() {
        Duration atLeast = AT_LEAST;
        long start = System.nanoTime();
        provider.lock(config(NAME, LONG, atLeast)).orElseThrow().unlock();
        assertThat(provider.lock(config(NAME, LONG, Duration.ZERO))).as("still locked after the early unlock")
                .isEmpty();
        assertThat(nodes.pttlOnAMajority("shedlock:" + NAME)).as("the keys expire at lockAtLeastFor, not lockAtMostFor")
                .isBetween(1L, atLeast.toMillis());
        await().atMost(atLeast.plus(SETTLE)).pollInterval(Duration.ofMillis(20))
                .until(() -> provider.lock(config(NAME, LONG, Duration.ZERO)).map(lock -> {
                    lock.unlock();
                    return true;
                }).orElse(false));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(atLeast);
    }

    @Test
    void anUnlockAfterLockAtLeastForReleasesAtOnce() {
        long start = System.nanoTime();
        SimpleLock lock = provider.lock(config(NAME, LONG, SHORT)).orElseThrow();
        await().atMost(SHORT.plus(SETTLE)).until(() -> System.nanoTime() - start > SHORT.toNanos());
        lock.unlock();
        assertUnlocked(NAME);
    }

    /** Extended to 60 s, the keys live past the first lockAtMostFor (10 s, long enough to extend before it ends). */
    @Test
    void anExtendedLockOutlivesItsFirstLockAtMostFor() {
        SimpleLock lock = provider.lock(config(NAME, Duration.ofSeconds(10), Duration.ZERO)).orElseThrow();
        SimpleLock extended = lock.extend(Duration.ofSeconds(60), Duration.ZERO).orElseThrow();
        assertThat(nodes.pttlOnAMajority("shedlock:" + NAME)).isGreaterThan(10_000L);
        extended.unlock();
        assertUnlocked(NAME);
    }

    /**
     * After an unlock the keys keep the extension's lockAtLeastFor (50 s): above the lock's first lockAtMostFor
     * (10 s), so only lockAtLeastFor can have set it, however long the checks take.
     */
    @Test
    void anExtensionWithLockAtLeastForKeepsTheLockAfterUnlock() {
        SimpleLock lock = provider.lock(config(NAME, Duration.ofSeconds(10), Duration.ZERO)).orElseThrow();
        lock.extend(Duration.ofSeconds(60), Duration.ofSeconds(50)).orElseThrow().unlock();
        assertLocked(NAME);
        assertThat(nodes.pttlOnAMajority("shedlock:" + NAME)).isBetween(10_000L, 50_000L);
    }

    @Test
    void anUnlockedLockCannotBeExtended() {
        SimpleLock lock = provider.lock(config(NAME, LONG, Duration.ZERO)).orElseThrow();
        lock.unlock();
        assertThatThrownBy(() -> lock.extend(Duration.ofSeconds(10), Duration.ZERO))
                .isInstanceOf(IllegalStateException.class);
        assertUnlocked(NAME);
    }

    @Test
    void anExpiredLockIsNotExtendedAndStaysFree() {
        SimpleLock lock = provider.lock(config(NAME, SHORT, Duration.ZERO)).orElseThrow();
        await().atMost(SHORT.plus(SETTLE)).pollInterval(Duration.ofMillis(10)).until(() -> unlocked(NAME));
        assertThat(lock.extend(Duration.ofSeconds(10), Duration.ZERO)).isEmpty();
        assertUnlocked(NAME);
    }

    @Test
    void aLockIsUsedUpByItsExtensionOrItsUnlock() {
        SimpleLock lock = provider.lock(config(NAME, Duration.ofSeconds(10), Duration.ZERO)).orElseThrow();
        SimpleLock extended = lock.extend(Duration.ofSeconds(10), Duration.ZERO).orElseThrow();
        assertThatThrownBy(() -> lock.extend(Duration.ofSeconds(10), Duration.ZERO))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalStateException.class);
        extended.unlock();
        assertThatThrownBy(extended::unlock).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void manyNamesLockedFromManyThreadsNeverHaveTwoHolders() throws Exception {
        List<String> names = List.of("a", "b", "c", "d", "e");
        Map<String, AtomicInteger> holders = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger held = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                workers.add(pool.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        String name = names.get(ThreadLocalRandom.current().nextInt(names.size()));
                        Optional<SimpleLock> lock = provider.lock(config(name, LONG, Duration.ZERO));
                        if (lock.isEmpty()) {
                            continue;
                        }
                        AtomicInteger inside = holders.computeIfAbsent(name, n -> new AtomicInteger());
                        if (inside.incrementAndGet() > 1) {
                            overlaps.incrementAndGet();
                        }
                        held.incrementAndGet();
                        inside.decrementAndGet();
                        lock.get().unlock();
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(overlaps).hasValue(0);
        assertThat(held.get()).isGreaterThan(names.size());
        names.forEach(this::assertUnlocked);
    }

    @Test
    void theRunningJobSeesItsLeaseAndItsFencingTokenRises() {
        assertThat(RedlockLockProvider.currentLease()).isEmpty();
        SimpleLock first = provider.lock(config(NAME, LONG, Duration.ZERO)).orElseThrow();
        Lease lease = RedlockLockProvider.currentLease().orElseThrow();
        assertThat(lease.resource()).isEqualTo("shedlock:" + NAME);
        long token = lease.fencingToken();
        first.unlock();
        assertThat(RedlockLockProvider.currentLease()).isEmpty();
        SimpleLock second = provider.lock(config(NAME, LONG, Duration.ZERO)).orElseThrow();
        assertThat(RedlockLockProvider.currentLease().orElseThrow().fencingToken()).isGreaterThan(token);
        second.unlock();
    }

    @Test
    void aLockAtMostForThatLeavesNoValidityAfterTheDriftAndOneNodeTimeoutIsAConfigError() {
        for (Duration atMost : new Duration[] {NODE_TIMEOUT, NODE_TIMEOUT.plusMillis(1)}) {
            assertThatThrownBy(() -> provider.lock(config(NAME, atMost, Duration.ZERO)))
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining("must leave a validity");
        }
        assertUnlocked(NAME);
    }

    private static LockConfiguration config(String name, Duration atMost, Duration atLeast) {
        return new LockConfiguration(Instant.now(), name, atMost, atLeast);
    }

    private void assertLocked(String name) {
        long holding = nodes.servers().stream().filter(node -> node.get("shedlock:" + name) != null).count();
        assertThat(holding).as("nodes holding %s", name).isGreaterThanOrEqualTo(2);
    }

    /**
     * Gone from every node: an unlock is confirmed by a majority, and the last node's delete may land a moment
     * later; the bound is far below every lockAtMostFor it is used with, so it sees the unlock, not an expiry.
     */
    private void assertUnlocked(String name) {
        await(name + " gone from every node").atMost(SETTLE).pollInterval(Duration.ofMillis(10))
                .until(() -> unlocked(name));
    }

    private boolean unlocked(String name) {
        return nodes.servers().stream().allMatch(node -> node.get("shedlock:" + name) == null);
    }
}
