package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static io.redlock.WithLockIT.KEPT;
import static io.redlock.WithLockIT.KEPT_TTL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * withLock tells the holder the moment its lease is lost: the work is interrupted, the listeners told, the call fails
 * with the reason. Losses are provoked (a majority stalled, the keys deleted, the maximum hold reached) on leases kept
 * with room for a loaded machine ({@link WithLockIT#KEPT}), so the reason is the provoked one.
 */
@WithRedisNodes(5)
class WithLockLossIT {

    private static final Logger log = LoggerFactory.getLogger(WithLockLossIT.class);
    /** A lease that runs out soon once it is no longer extended: for a loss by expiry. */
    private static final LockOptions SHORT = LockOptions.builder().ttl(Duration.ofMillis(600))
            .maxWait(Duration.ofSeconds(5)).build();

    @Test
    void losingAMajorityWhileWorkingInterruptsTellsListenersAndThrows(RedisNodes nodes) {
        List<LossReason> globalLosses = new CopyOnWriteArrayList<>();
        AtomicLong detectedAt = new AtomicLong();
        AtomicLong validUntilWhenLost = new AtomicLong();
        AtomicBoolean interrupted = new AtomicBoolean();
        try (Redlock redlock = Observed.build(redlockOn(nodes),
                RedlockObserver.lossesTo((l, reason) -> globalLosses.add(reason)))) {
            assertThatThrownBy(() -> redlock.withLock("paused-majority", SHORT, lease -> {
                lease.onLost((l, reason) -> {
                    detectedAt.set(System.nanoTime());
                    validUntilWhenLost.set(l.validUntil());
                });
                nodes.node(0).pause();
                nodes.node(1).pause();
                nodes.node(2).pause();
                try {
                    Thread.sleep(SHORT.ttl().orElseThrow().multipliedBy(10).toMillis());
                } catch (InterruptedException e) {
                    interrupted.set(true);
                    assertThat(lease.isValid()).isFalse();
                }
                return null;
            })).isInstanceOfSatisfying(LeaseLostException.class,
                    e -> assertThat(e.reason()).isEqualTo(LossReason.EXPIRED));
            assertThat(interrupted).isTrue();
            assertThat(globalLosses).containsExactly(LossReason.EXPIRED);
            long late = detectedAt.get() - validUntilWhenLost.get();
            log.info("loss detected {} ms after the validity ran out", Duration.ofNanos(late).toMillis());
            // never before the validity ran out; how soon after is a matter of scheduling (on fake time,
            // WatchdogTimingIT shows it comes exactly then)
            assertThat(late).isNotNegative();
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
        } finally {
            nodes.servers().stream().filter(RedisServer::isPaused).forEach(RedisServer::resume);
        }
    }

    @Test
    void workThatSwallowsTheInterruptStillGetsLeaseLost(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            assertThatThrownBy(() -> redlock.withLock("swallowed", KEPT, lease -> {
                ItSupport.awaitOnEveryNode(nodes, "swallowed");
                for (RedisServer node : nodes) {
                    node.redis(r -> r.del("swallowed")); // the lock vanished under us: the next extension is refused
                }
                // no extension can keep the lease a TTL past the deletes; the loss is noticed soon after
                long end = System.nanoTime() + KEPT_TTL.multipliedBy(5).toNanos();
                while (lease.lossReason().isEmpty() && System.nanoTime() < end) {
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException ignored) {
                        // badly behaved work: carries on
                    }
                }
                return "finished anyway";
            })).isInstanceOfSatisfying(LeaseLostException.class,
                    e -> assertThat(e.reason()).isEqualTo(LossReason.EXTENSION_REFUSED));
        }
    }

    @Test
    void maxHoldStopsExtendingAndIsALossAtOnce(RedisNodes nodes) {
        Duration maxHold = Duration.ofSeconds(1);
        LockOptions bounded = KEPT.toBuilder().maxHold(maxHold).build();
        AtomicLong toldAt = new AtomicLong();
        AtomicLong validUntilWhenTold = new AtomicLong();
        AtomicLong interruptedAt = new AtomicLong();
        AtomicBoolean validWhenInterrupted = new AtomicBoolean(true);
        AtomicLong holdingWhenInterrupted = new AtomicLong();
        try (Redlock redlock = redlockOn(nodes).build()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> redlock.withLock("bounded", bounded, lease -> {
                lease.onLost((l, reason) -> {
                    toldAt.set(System.nanoTime());
                    validUntilWhenTold.set(l.validUntil());
                });
                try {
                    Thread.sleep(Duration.ofSeconds(10).toMillis());
                } catch (InterruptedException e) {
                    interruptedAt.set(System.nanoTime());
                    validWhenInterrupted.set(lease.isValid());
                    holdingWhenInterrupted.set(ItSupport.holding(nodes, "bounded", lease.value()));
                }
                return null;
            })).isInstanceOfSatisfying(LeaseLostException.class,
                    e -> assertThat(e.reason()).isEqualTo(LossReason.MAX_HOLD));
            log.info("maxHold {} ms: listener told after {} ms, work interrupted after {} ms, {} ms of validity left",
                    maxHold.toMillis(), Duration.ofNanos(toldAt.get() - start).toMillis(),
                    Duration.ofNanos(interruptedAt.get() - start).toMillis(),
                    Duration.ofNanos(validUntilWhenTold.get() - toldAt.get()).toMillis());
            // extended past the TTL up to the bound, then declared lost at the bound itself, while the last
            // extension's validity still ran (extensions come every half second with 2 s of TTL); the keys were
            // left to expire
            assertThat(toldAt.get() - start).isGreaterThanOrEqualTo(maxHold.toNanos());
            assertThat(validUntilWhenTold.get() - toldAt.get()).as("validity left when told").isPositive();
            assertThat(interruptedAt.get() - start).isGreaterThanOrEqualTo(maxHold.toNanos());
            assertThat(validWhenInterrupted).isFalse();
            assertThat(holdingWhenInterrupted.get()).as("nodes still holding the key, not deleted at maxHold")
                    .isGreaterThanOrEqualTo(RedlockConfig.quorumOf(nodes.size()));
        }
    }

    @Test
    void withLockAsyncReportsALossAsLeaseLostExceptionAndTellsTheListener(RedisNodes nodes) {
        AtomicReference<LossReason> told = new AtomicReference<>();
        try (Redlock redlock = redlockOn(nodes).build()) {
            CompletableFuture<String> result = redlock.<String>withLockAsync("lost-async", KEPT, lease -> {
                lease.onLost((l, reason) -> told.set(reason));
                ItSupport.awaitOnEveryNode(nodes, "lost-async");
                for (RedisServer node : nodes) {
                    node.redis(r -> r.del("lost-async")); // the next extension is refused
                }
                return CompletableFuture.supplyAsync(() -> "finished",
                        CompletableFuture.delayedExecutor(KEPT_TTL.multipliedBy(5).toMillis(), TimeUnit.MILLISECONDS));
            }).toCompletableFuture();
            assertThat(result).failsWithin(Duration.ofSeconds(20)).withThrowableThat()
                    .havingCause().isInstanceOfSatisfying(LeaseLostException.class,
                            e -> assertThat(e.reason()).isEqualTo(LossReason.EXTENSION_REFUSED));
            assertThat(told.get()).isEqualTo(LossReason.EXTENSION_REFUSED);
        }
    }

    @Test
    void aListenerAddedAfterTheLossIsCalledAtOnce(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            AtomicReference<Lease> kept = new AtomicReference<>();
            assertThatThrownBy(() -> redlock.withLock("late-listener", KEPT, lease -> {
                kept.set(lease);
                ItSupport.awaitOnEveryNode(nodes, "late-listener");
                for (RedisServer node : nodes) {
                    node.redis(r -> r.del("late-listener"));
                }
                Thread.sleep(KEPT_TTL.multipliedBy(5).toMillis()); // the loss interrupts it
                return null;
            })).isInstanceOf(LeaseLostException.class);
            AtomicReference<LossReason> told = new AtomicReference<>();
            kept.get().onLost((lease, reason) -> told.set(reason));
            assertThat(told.get()).isEqualTo(LossReason.EXTENSION_REFUSED);
            assertThat(kept.get().lossReason()).contains(LossReason.EXTENSION_REFUSED);
        }
    }

    @Test
    void anUnwatchedLeaseThatExpiresUnreleasedIsReportedToTheListener(RedisNodes nodes) {
        List<String> lost = new CopyOnWriteArrayList<>();
        try (Redlock redlock = Observed.build(redlockOn(nodes),
                RedlockObserver.lossesTo((lease, reason) -> lost.add(lease.resource() + " " + reason)))) {
            redlock.tryAcquire("forgotten", KEPT_TTL).orElseThrow();
            Lease released = redlock.tryAcquire("released", KEPT_TTL).orElseThrow();
            released.release();
            await().atMost(KEPT_TTL.multipliedBy(5)).until(() -> !lost.isEmpty());
            // past the moment the released lease would have run out, had it not been released
            long after = released.validUntil() + units(2).toNanos();
            await().atMost(KEPT_TTL.multipliedBy(5)).until(() -> System.nanoTime() - after > 0);
            assertThat(lost).containsExactly("forgotten EXPIRED");
        }
    }
}
