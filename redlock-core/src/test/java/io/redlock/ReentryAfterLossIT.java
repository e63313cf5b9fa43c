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
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A thread that held a {@link RedlockLock} whose lease was lost does not hold it any more: locking again is a fresh
 * acquisition, never a re-entrant count on a lease someone else's lock has replaced.
 */
@WithRedisNodes(5)
class ReentryAfterLossIT {

    private static final Duration TTL = Duration.ofSeconds(2);
    /**
     * Extended every half second or so, each extension due 1.5 s before the validity ends: a lease is lost only when
     * the test stops it being extended, not because a loaded machine ran an extension late.
     */
    private static final LockOptions OPTIONS = LockOptions.builder().ttl(TTL).maxWait(units(50))
            .extendWhenRemaining(Duration.ofMillis(1_500)).build();

    @Test
    void relockingAfterTheLeaseWasLostWhileNodesWereFrozenIsAFreshAcquisition(RedisNodes nodes) throws Exception {
        String resource = "reentry-after-loss";
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            RedlockLock lock = a.lock(resource, OPTIONS);
            lock.lock();
            Lease first = lock.currentLease().orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, resource);
            // from another thread: the loss interrupts this one, and join() waits uninterruptibly
            CompletableFuture.runAsync(() -> {
                List<RedisServer> frozen = nodes.servers().subList(0, 3);
                frozen.forEach(RedisServer::pause);
                long frozenAt = System.nanoTime();
                try {
                    // no extension reaches a majority: the watchdog declares the loss when the validity runs out,
                    // and the keys on the frozen nodes are past their TTL when the nodes wake up
                    await().atMost(units(50)).until(() -> first.lossReason().isPresent()
                            && System.nanoTime() - frozenAt > TTL.plus(units(2)).toNanos());
                } finally {
                    frozen.forEach(RedisServer::resume);
                }
            }).join();
            assertThat(first.lossReason()).contains(LossReason.EXPIRED);
            assertThat(Thread.interrupted()).as("the loss interrupted the owner").isTrue();
            Lease other = b.acquire(resource, Duration.ofSeconds(30), units(50)).orElseThrow();

            assertThat(lock.tryLock()).as("tryLock() while another client holds the lock").isFalse();
            assertThat(lock.isHeldByCurrentThread()).isFalse();
            assertThat(lock.tryLock(units(3).toMillis(), TimeUnit.MILLISECONDS)).isFalse();
            assertThat(other.isValid()).isTrue();

            AtomicBoolean released = new AtomicBoolean();
            CompletableFuture.runAsync(() -> {
                released.set(true);
                other.release();
            }, CompletableFuture.delayedExecutor(units(3).toMillis(), TimeUnit.MILLISECONDS));
            lock.lock(); // waits for the other client's release
            assertThat(released).isTrue();
            assertThat(lock.isHeldByCurrentThread()).isTrue();
            assertThat(lock.currentLease().orElseThrow().fencingToken()).isGreaterThan(other.fencingToken());
            lock.unlock();

            // the first lock() is still to be unlocked: that unlock reports the loss of its lease
            assertThatThrownBy(lock::unlock).isInstanceOfSatisfying(LeaseLostException.class,
                    e -> assertThat(e.reason()).isEqualTo(LossReason.EXPIRED));
            assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
            assertThat(ItSupport.absentEverywhere(nodes, resource)).isTrue();
        }
    }

    @Test
    void relockingAfterAFixedLeaseExpiredIsAFreshAcquisition(RedisNodes nodes) throws Exception {
        String resource = "reentry-after-expiry";
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            RedlockLock lock = a.lock(resource, OPTIONS);
            lock.lock(TTL);
            Lease first = lock.currentLease().orElseThrow();
            await().atMost(units(50)).until(() -> !first.isValid());
            Lease other = b.acquire(resource, Duration.ofSeconds(30), units(50)).orElseThrow();

            assertThat(lock.tryLock(Duration.ZERO, TTL)).isFalse();
            assertThat(lock.isHeldByCurrentThread()).isFalse();
            assertThatThrownBy(lock::unlock).isInstanceOfSatisfying(LeaseLostException.class,
                    e -> assertThat(e.reason()).isEqualTo(LossReason.EXPIRED));
            other.release();
        }
    }
}
