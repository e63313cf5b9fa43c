package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;

/** The java.util.concurrent.locks.Lock adapter and the seeds' Redisson-style calls (SPEC J1, J2). */
@WithRedisNodes(5)
class RedlockLockIT {

    private static final Duration TTL = Duration.ofMillis(600);
    private static final LockOptions SHORT = LockOptions.builder().ttl(TTL).maxWait(Duration.ofSeconds(5)).build();

    @Test
    void lockAndUnlockTakeAndReleaseTheLock(RedisNodes nodes) {
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            Lock lock = a.lock("orders:42", SHORT);
            lock.lock();
            try {
                assertThat(b.tryAcquire("orders:42", TTL)).isEmpty();
            } finally {
                lock.unlock();
            }
            assertThat(ItSupport.absentEverywhere(nodes, "orders:42")).isTrue();
        }
    }

    @Test
    void isReentrantForTheOwningThreadWithOneLeaseUnderneath(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockLock lock = redlock.lock("reentrant", SHORT);
            lock.lock();
            Lease lease = lock.currentLease().orElseThrow();
            assertThat(lock.tryLock()).isTrue();
            assertThat(lock.tryLock(1, TimeUnit.SECONDS)).isTrue();
            assertThat(lock.currentLease()).containsSame(lease);
            lock.unlock();
            lock.unlock();
            assertThat(lock.isHeldByCurrentThread()).isTrue();
            assertThat(ItSupport.holding(nodes, "reentrant", lease.value())).isPositive();
            lock.unlock();
            assertThat(lock.isHeldByCurrentThread()).isFalse();
            assertThat(ItSupport.absentEverywhere(nodes, "reentrant")).isTrue();
        }
    }

    @Test
    void unlockFromAnotherThreadIsIllegal(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockLock lock = redlock.lock("owned", SHORT);
            lock.lock();
            CompletableFuture<Void> foreign = CompletableFuture.runAsync(lock::unlock);
            assertThat(foreign).failsWithin(Duration.ofSeconds(5)).withThrowableThat()
                    .havingCause().isInstanceOf(IllegalMonitorStateException.class).withMessageContaining("owned");
            assertThatThrownBy(() -> redlock.lock("never-locked", SHORT).unlock())
                    .isInstanceOf(IllegalMonitorStateException.class);
            lock.unlock();
        }
    }

    @Test
    void theWatchdogKeepsTheLockWhileHeld(RedisNodes nodes) throws Exception {
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            RedlockLock lock = a.lock("watched", SHORT);
            lock.lockInterruptibly();
            Thread.sleep(TTL.multipliedBy(3).toMillis()); // three TTLs: only extensions keep it
            assertThat(lock.isHeldByCurrentThread()).isTrue();
            assertThat(b.tryAcquire("watched", TTL)).isEmpty();
            lock.unlock();
        }
    }

    @Test
    void tryLockWaitsUpToItsTimeAndFailsWhileHeldElsewhere(RedisNodes nodes) throws Exception {
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            Lease held = a.tryAcquire("contended", Duration.ofSeconds(10)).orElseThrow();
            RedlockLock lock = b.lock("contended", SHORT);
            assertThat(lock.tryLock()).isFalse();
            long start = System.nanoTime();
            assertThat(lock.tryLock(300, TimeUnit.MILLISECONDS)).isFalse();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(units(2));
            CompletableFuture.runAsync(held::release, CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS));
            assertThat(lock.tryLock(5, TimeUnit.SECONDS)).isTrue();
            lock.unlock();
        }
    }

    @Test
    void aFixedLeaseSimplyExpiresAndUnlockSaysSo(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockLock lock = redlock.lock("fixed", SHORT);
            lock.lock(units(4));
            assertThat(lock.remainingValidity()).isPositive().isLessThanOrEqualTo(units(4));
            assertThat(lock.currentLease().orElseThrow().fencingToken()).isPositive();
            await().pollInSameThread().atMost(Duration.ofSeconds(3)).until(() -> !lock.isHeldByCurrentThread());
            assertThat(Thread.currentThread().isInterrupted()).isFalse(); // a fixed lease is not a watchdog's loss
            assertThatThrownBy(lock::unlock).isInstanceOfSatisfying(LeaseLostException.class,
                    e -> assertThat(e.reason()).isEqualTo(LossReason.EXPIRED));
            assertThat(lock.tryLock(Duration.ofSeconds(1), units(4))).isTrue();
            lock.unlock();
        }
    }

    @Test
    void losingTheLockInterruptsTheOwnerAndUnlockThrows(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockLock lock = redlock.lock("lost", SHORT);
            lock.lock();
            ItSupport.awaitOnEveryNode(nodes, "lost");
            AtomicBoolean interrupted = new AtomicBoolean();
            for (RedisServer node : nodes) {
                node.redis(r -> r.del("lost"));
            }
            try {
                Thread.sleep(TTL.multipliedBy(5).toMillis());
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
            assertThat(interrupted).isTrue();
            assertThat(lock.isHeldByCurrentThread()).isFalse();
            assertThatThrownBy(lock::unlock).isInstanceOfSatisfying(LeaseLostException.class,
                    e -> assertThat(e.reason()).isEqualTo(LossReason.EXTENSION_REFUSED));
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
        }
    }

    @Test
    void afterALossTheOwnerKeepsTheLockLocallyUntilItsUnlockReportsTheLoss(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockLock lock = redlock.lock("lost-shared", SHORT);
            lock.lock();
            AtomicReference<Throwable> contenderFailure = new AtomicReference<>();
            CountDownLatch contenderHolds = new CountDownLatch(1);
            Thread contender = new Thread(() -> {
                try {
                    lock.lock(); // another thread of this JVM, waiting for the same lock object
                    try {
                        contenderHolds.countDown();
                    } finally {
                        lock.unlock();
                    }
                } catch (Throwable t) {
                    contenderFailure.set(t);
                }
            }, "contender");
            contender.start();
            // the lock is gone on the nodes: the owner loses it (deleted from another thread, so the owner's
            // interrupt cannot land in the middle of it; join() waits uninterruptibly)
            CompletableFuture.runAsync(() -> nodes.forEach(node -> node.redis(r -> r.del("lost-shared")))).join();
            AtomicBoolean interrupted = new AtomicBoolean();
            try {
                Thread.sleep(TTL.multipliedBy(5).toMillis());
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
            assertThat(interrupted).isTrue();
            // the nodes are free now, but the owner has not unlocked: the other thread must not have taken over
            assertThat(contenderHolds.await(units(3).toMillis(), TimeUnit.MILLISECONDS)).isFalse();
            assertThatThrownBy(lock::unlock).isInstanceOfSatisfying(LeaseLostException.class,
                    e -> assertThat(e.reason()).isEqualTo(LossReason.EXTENSION_REFUSED));
            assertThat(contenderHolds.await(10, TimeUnit.SECONDS)).isTrue();
            contender.join(10_000);
            assertThat(contenderFailure.get()).isNull();
            assertThat(ItSupport.absentEverywhere(nodes, "lost-shared")).isTrue();
        }
    }

    @Test
    void tryLockGivesUpWhileAnotherThreadOfThisJvmHoldsTheLock(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockLock lock = redlock.lock("local-owner", SHORT);
            lock.lock();
            try {
                CompletableFuture<Boolean> other = CompletableFuture.supplyAsync(() -> {
                    try {
                        return lock.tryLock() || lock.tryLock(units(2).toMillis(), TimeUnit.MILLISECONDS);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
                assertThat(other.get(10, TimeUnit.SECONDS)).isFalse();
                assertThat(lock.isHeldByCurrentThread()).isTrue();
            } finally {
                lock.unlock();
            }
        }
    }

    @Test
    void lockIsNotInterruptibleButLockInterruptiblyIs(RedisNodes nodes) throws Exception {
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            Lease held = a.tryAcquire("interruptible", Duration.ofSeconds(10)).orElseThrow();
            RedlockLock lock = b.lock("interruptible", SHORT);
            AtomicBoolean gotInterrupted = new AtomicBoolean();
            Thread waiter = new Thread(() -> {
                try {
                    lock.lockInterruptibly();
                } catch (InterruptedException e) {
                    gotInterrupted.set(true);
                }
            });
            waiter.start();
            Thread.sleep(units(2).toMillis());
            waiter.interrupt();
            waiter.join(5_000);
            assertThat(gotInterrupted).isTrue();

            AtomicBoolean lockedWithFlag = new AtomicBoolean();
            Thread stubborn = new Thread(() -> {
                lock.lock();
                lockedWithFlag.set(Thread.currentThread().isInterrupted());
                lock.unlock();
            });
            stubborn.start();
            Thread.sleep(units(2).toMillis());
            stubborn.interrupt();
            held.release();
            stubborn.join(10_000);
            assertThat(lockedWithFlag).isTrue(); // lock() waited on, then restored the interrupt flag
        }
    }

    @Test
    void conditionsAreNotSupportedAndSayWhy(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            assertThatThrownBy(() -> redlock.lock("cond").newCondition())
                    .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("other machines");
        }
    }
}
