package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link RedlockLock} keeps the {@link java.util.concurrent.locks.Lock} contract where the generated histories
 * (io.redlock.histories.LockHistoriesIT) found it did not: an interruptible call made with the interrupt flag set
 * throws, also on re-entry; the untimed {@code tryLock()} ignores interrupts; a thread sees only its own lease.
 */
@WithRedisNodes(5)
class LockContractIT {

    private static final LockOptions OPTIONS = LockOptions.builder().ttl(Duration.ofSeconds(2))
            .maxWait(Duration.ofSeconds(5)).build();

    @Test
    void aReentrantInterruptibleCallWithTheInterruptFlagSetThrowsAndClearsIt(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockLock lock = redlock.lock("interrupted-reentry", OPTIONS);
            lock.lock();
            try {
                Thread.currentThread().interrupt();
                assertThatThrownBy(lock::lockInterruptibly).isInstanceOf(InterruptedException.class);
                assertThat(Thread.currentThread().isInterrupted()).isFalse();
                Thread.currentThread().interrupt();
                assertThatThrownBy(() -> lock.tryLock(1, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
                assertThat(Thread.interrupted()).isFalse();
            } finally {
                lock.unlock(); // one hold: the interrupted calls counted none
            }
            assertThat(lock.isLocked()).isFalse();
        }
    }

    @Test
    void theUntimedTryLockTakesAFreeLockThoughTheThreadIsInterrupted(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockLock lock = redlock.lock("interrupted-try", OPTIONS);
            Thread.currentThread().interrupt();
            try {
                assertThat(lock.tryLock()).isTrue();
                assertThat(Thread.currentThread().isInterrupted()).as("the flag is kept").isTrue();
            } finally {
                Thread.interrupted();
            }
            lock.unlock();
        }
    }

    @Test
    void aThreadThatDoesNotHoldTheLockSeesNoLease(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockLock lock = redlock.lock("own-lease", OPTIONS);
            lock.lock();
            try {
                assertThat(lock.currentLease()).isPresent();
                CompletableFuture.runAsync(() -> {
                    assertThat(lock.currentLease()).as("another thread's lease").isEmpty();
                    assertThat(lock.remainingValidity()).isZero();
                    assertThat(lock.isHeldByCurrentThread()).isFalse();
                    assertThat(lock.isLocked()).as("held in this JVM").isTrue();
                }).get(10, TimeUnit.SECONDS);
            } finally {
                lock.unlock();
            }
        }
    }
}
