package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.internal.protocol.Keys;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Closing a Redlock while it keeps leases alive: their holders learn it as a loss and stop, the locks are released,
 * and nothing of the Redlock is left running.
 */
@WithRedisNodes(5)
class CloseIT {

    private static final LockOptions OPTIONS = LockOptions.builder().ttl(Duration.ofSeconds(30)).build();

    /** Threads of the library: its scheduler, and the event loops and timer of the Lettuce resources it owns. */
    private static Set<Thread> libraryThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive)
                .filter(t -> t.getName().startsWith("redlock-")).collect(Collectors.toSet());
    }

    @Test
    void closeEndsEveryKeptAliveLeaseReleasesItAndLeavesNoThreadBehind(RedisNodes nodes) throws Exception {
        Set<Thread> before = libraryThreads();
        List<LossReason> told = new CopyOnWriteArrayList<>();
        Redlock redlock = Observed.build(redlockOn(nodes), RedlockObserver.lossesTo((lease, reason) -> told.add(reason)));
        CountDownLatch holding = new CountDownLatch(2);
        AtomicBoolean workInterrupted = new AtomicBoolean();
        CompletableFuture<Throwable> withLock = CompletableFuture.supplyAsync(() -> {
            try {
                redlock.withLock("closed-withlock", OPTIONS, lease -> {
                    holding.countDown();
                    try {
                        Thread.sleep(units(300).toMillis());
                    } catch (InterruptedException e) {
                        workInterrupted.set(true);
                    }
                    return null;
                });
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        RedlockLock lock = redlock.lock("closed-lock", OPTIONS);
        AtomicBoolean ownerInterrupted = new AtomicBoolean();
        CompletableFuture<Throwable> locked = CompletableFuture.supplyAsync(() -> {
            lock.lock();
            holding.countDown();
            try {
                Thread.sleep(units(300).toMillis());
            } catch (InterruptedException e) {
                ownerInterrupted.set(true);
            }
            try {
                lock.unlock();
                return null;
            } catch (Throwable t) {
                return t;
            }
        });
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        ItSupport.awaitOnEveryNode(nodes, "closed-withlock");
        ItSupport.awaitOnEveryNode(nodes, "closed-lock");
        assertThat(redlock.activeLeases()).isEqualTo(2);
        assertThat(libraryThreads()).as("library threads while it runs").hasSizeGreaterThan(before.size());

        long start = System.nanoTime();
        redlock.close();
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        // at once, no polling: close() returned only after the releases landed
        for (String key : List.of("closed-withlock", "closed-lock")) {
            assertThat(nodes.servers()).allSatisfy(node -> assertThat(node.get(key)).as(key).isNull());
        }
        assertThat(libraryThreads()).as("library threads after close()").isSubsetOf(before);
        assertThat(took).isLessThan(Duration.ofSeconds(5));
        assertThat(withLock.get(10, TimeUnit.SECONDS)).isInstanceOfSatisfying(LeaseLostException.class,
                e -> assertThat(e.reason()).isEqualTo(LossReason.CLOSED));
        assertThat(workInterrupted).isTrue();
        assertThat(locked.get(10, TimeUnit.SECONDS)).isInstanceOfSatisfying(LeaseLostException.class,
                e -> assertThat(e.reason()).isEqualTo(LossReason.CLOSED));
        assertThat(ownerInterrupted).isTrue();
        assertThat(told).containsExactly(LossReason.CLOSED, LossReason.CLOSED);
    }

    @Test
    void closeReleasesEveryKindOfLockItKeepsAliveAndLeavesOnlyFencingCounters(RedisNodes nodes) throws Exception {
        Redlock redlock = redlockOn(nodes).build();
        List<LockTarget> targets = List.of(LockTarget.all(List.of("closed-a", "closed-b")), LockTarget.read("closed-r"),
                LockTarget.write("closed-w"), LockTarget.permit("closed-p", 2));
        ExecutorService holders = Executors.newFixedThreadPool(targets.size() + 1);
        try {
            CountDownLatch holding = new CountDownLatch(targets.size() + 1);
            List<Future<Throwable>> works = new ArrayList<>();
            for (LockTarget target : targets) {
                works.add(holders.submit(() -> {
                    try {
                        redlock.withLock(target, OPTIONS, lease -> {
                            holding.countDown();
                            Thread.sleep(units(300).toMillis());
                            return null;
                        });
                        return null;
                    } catch (Throwable t) {
                        return t;
                    }
                }));
            }
            Lock readLock = redlock.readWriteLock("closed-rw").readLock();
            works.add(holders.submit(() -> {
                readLock.lock();
                holding.countDown();
                try {
                    Thread.sleep(units(300).toMillis());
                } catch (InterruptedException e) {
                    // the close interrupts the holder
                }
                try {
                    readLock.unlock();
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            }));
            assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
            for (String key : List.of("closed-a", "closed-b", "closed-r", "closed-w", "closed-p", "closed-rw")) {
                ItSupport.awaitOnEveryNode(nodes, key);
            }
            assertThat(redlock.activeLeases()).isEqualTo(targets.size() + 1);

            redlock.close();

            // at once, no polling: close() returned only after the releases landed
            for (RedisServer node : nodes) {
                List<String> keys = node.redis(r -> r.keys("*"));
                assertThat(keys).as("keys left on %s", node).allMatch(key -> key.endsWith(Keys.FENCE_SUFFIX));
            }
            for (Future<Throwable> work : works) {
                assertThat(work.get(10, TimeUnit.SECONDS)).isInstanceOfSatisfying(LeaseLostException.class,
                        e -> assertThat(e.reason()).isEqualTo(LossReason.CLOSED));
            }
        } finally {
            holders.shutdownNow();
        }
    }

    @Test
    void aThreadThatHoldsALockClosesTheRedlockCleanly(RedisNodes nodes) {
        Set<Thread> before = libraryThreads();
        Redlock redlock = redlockOn(nodes).build();
        RedlockLock lock = redlock.lock("closed-by-holder", OPTIONS);
        lock.lock(); // as a try-with-resources block that throws before its unlock would leave it
        ItSupport.awaitOnEveryNode(nodes, "closed-by-holder");

        redlock.close(); // the closer is the holder: it knows, and its own close must not be cut short

        assertThat(Thread.interrupted()).as("the closing thread left interrupted").isFalse();
        assertThat(nodes.servers()).allSatisfy(node -> assertThat(node.get("closed-by-holder")).isNull());
        assertThat(libraryThreads()).as("library threads after close()").isSubsetOf(before);
        assertThatThrownBy(lock::unlock).isInstanceOfSatisfying(LeaseLostException.class,
                e -> assertThat(e.reason()).isEqualTo(LossReason.CLOSED));
    }

    @Test
    void aClosedRedlockRefusesNewWorkClearly(RedisNodes nodes) {
        Redlock redlock = redlockOn(nodes).build();
        redlock.close();
        assertThatThrownBy(() -> redlock.tryAcquire("after-close", Duration.ofSeconds(1)))
                .isInstanceOf(RedlockClosedException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> redlock.withLock("after-close", lease -> null))
                .isInstanceOf(RedlockClosedException.class);
        assertThatThrownBy(() -> redlock.lock("after-close").tryLock()).isInstanceOf(RedlockClosedException.class);
        redlock.close(); // idempotent
    }

    @Test
    void aLeaseWithoutAWatchdogOutlivesTheClose(RedisNodes nodes) {
        // how `redlock acquire` hands a lease to a later process: the lock stays until released by value or expired
        String value;
        // a node timeout no reply misses on a loaded machine: what is checked is the hand-over, not the first attempt
        try (Redlock redlock = EveryNodeAnswers.redlockOn(nodes).build()) {
            value = redlock.tryAcquire("handed-over", Duration.ofSeconds(30)).orElseThrow().value();
            ItSupport.awaitOnEveryNode(nodes, "handed-over");
        }
        assertThat(nodes.servers()).allSatisfy(node -> assertThat(node.get("handed-over")).isEqualTo(value));
        // every node's release is counted: a node timeout every running node answers within
        try (Redlock later = EveryNodeAnswers.redlockOn(nodes).build()) {
            assertThat(later.release("handed-over", value).released()).isEqualTo(5);
        }
    }
}
