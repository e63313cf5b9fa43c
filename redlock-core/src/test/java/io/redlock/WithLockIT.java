package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** withLock: keep the lease alive while work runs, tell the holder the moment it is lost. */
@WithRedisNodes(5)
class WithLockIT {

    private static final Logger log = LoggerFactory.getLogger(WithLockIT.class);
    private static final Duration TTL = Duration.ofMillis(600);
    private static final LockOptions SHORT = LockOptions.builder().ttl(TTL).maxWait(Duration.ofSeconds(5)).build();

    @Test
    void returnsTheWorksResultAndReleases(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            String result = redlock.withLock("job", SHORT, lease -> {
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
            boolean stillValid = redlock.withLock("long-job", SHORT, lease -> {
                long end = System.nanoTime() + TTL.multipliedBy(4).toNanos();
                while (System.nanoTime() < end) {
                    assertThat(other.tryAcquire("long-job", TTL)).isEmpty();
                    Thread.sleep(units(1).toMillis());
                }
                return lease.isValid();
            });
            assertThat(stillValid).isTrue();
            assertThat(ItSupport.absentEverywhere(nodes, "long-job")).isTrue();
        }
    }

    @Test
    void losingAMajorityWhileWorkingInterruptsTellsListenersAndThrows(RedisNodes nodes) {
        List<LossReason> globalLosses = new CopyOnWriteArrayList<>();
        AtomicLong detectedAt = new AtomicLong();
        AtomicLong validUntilAtPause = new AtomicLong();
        AtomicBoolean interrupted = new AtomicBoolean();
        try (Redlock redlock = redlockOn(nodes).leaseListener((l, reason) -> globalLosses.add(reason)).build()) {
            assertThatThrownBy(() -> redlock.withLock("paused-majority", SHORT, lease -> {
                lease.onLost((l, reason) -> detectedAt.set(System.nanoTime()));
                nodes.node(0).pause();
                nodes.node(1).pause();
                nodes.node(2).pause();
                validUntilAtPause.set(lease.validUntil());
                try {
                    Thread.sleep(TTL.multipliedBy(10).toMillis());
                } catch (InterruptedException e) {
                    interrupted.set(true);
                    assertThat(lease.isValid()).isFalse();
                }
                return null;
            })).isInstanceOfSatisfying(LeaseLostException.class,
                    e -> assertThat(e.reason()).isEqualTo(LossReason.EXPIRED));
            assertThat(interrupted).isTrue();
            assertThat(globalLosses).containsExactly(LossReason.EXPIRED);
            long late = detectedAt.get() - validUntilAtPause.get();
            long extensionInterval = TTL.minus(SHORT.extendWhenRemaining().orElse(TTL.dividedBy(3))).toNanos();
            log.info("loss detected {} ms after the validity ran out (extension interval {} ms)",
                    Duration.ofNanos(late).toMillis(), Duration.ofNanos(extensionInterval).toMillis());
            assertThat(late).isBetween(0L, extensionInterval);
            assertThat(Thread.currentThread().isInterrupted()).isFalse();
        } finally {
            nodes.servers().stream().filter(RedisServer::isPaused).forEach(RedisServer::resume);
        }
    }

    @Test
    void workThatSwallowsTheInterruptStillGetsLeaseLost(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            assertThatThrownBy(() -> redlock.withLock("swallowed", SHORT, lease -> {
                ItSupport.awaitOnEveryNode(nodes, "swallowed");
                for (RedisServer node : nodes) {
                    node.redis(r -> r.del("swallowed")); // the lock vanished under us: the next extension is refused
                }
                long end = System.nanoTime() + TTL.multipliedBy(3).toNanos();
                while (System.nanoTime() < end) {
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
        LockOptions bounded = SHORT.toBuilder().maxHold(maxHold).build();
        AtomicReference<Duration> heldFor = new AtomicReference<>();
        AtomicReference<Duration> toldAfter = new AtomicReference<>();
        AtomicBoolean validWhenInterrupted = new AtomicBoolean(true);
        AtomicReference<String> keyWhenInterrupted = new AtomicReference<>();
        try (Redlock redlock = redlockOn(nodes).build()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> redlock.withLock("bounded", bounded, lease -> {
                lease.onLost((l, reason) -> toldAfter.set(Duration.ofNanos(System.nanoTime() - start)));
                try {
                    Thread.sleep(Duration.ofSeconds(10).toMillis());
                } catch (InterruptedException e) {
                    heldFor.set(Duration.ofNanos(System.nanoTime() - start));
                    validWhenInterrupted.set(lease.isValid());
                    keyWhenInterrupted.set(nodes.node(0).get("bounded"));
                }
                return null;
            })).isInstanceOfSatisfying(LeaseLostException.class,
                    e -> assertThat(e.reason()).isEqualTo(LossReason.MAX_HOLD));
            log.info("maxHold {} ms: listener told after {} ms, work interrupted after {} ms", maxHold.toMillis(),
                    toldAfter.get().toMillis(), heldFor.get().toMillis());
            // extended past the TTL up to the bound, then declared lost at the bound itself, not when the last
            // extension's validity runs out (up to one TTL later); the keys were left to expire
            Duration margin = units(2);
            assertThat(toldAfter.get()).isBetween(maxHold, maxHold.plus(margin));
            assertThat(heldFor.get()).isBetween(maxHold, maxHold.plus(margin));
            assertThat(validWhenInterrupted).isFalse();
            assertThat(keyWhenInterrupted.get()).as("the key is left to expire, not deleted at maxHold").isNotNull();
        }
    }

    @Test
    void noExtensionIsSentAfterRelease(RedisNodes nodes) {
        // the latest threshold allowed: TTL - drift (1 % + 2 ms) - per-node timeout, so extensions come one per-node
        // timeout apart
        LockOptions eager = SHORT.toBuilder().extendWhenRemaining(
                TTL.minus(TTL.dividedBy(100)).minusMillis(2).minus(ItSupport.NODE_TIMEOUT)).build();
        try (Redlock redlock = redlockOn(nodes).build()) {
            for (int i = 0; i < 20; i++) {
                // release right around the moments extensions are due
                int round = i;
                redlock.withLock("released-" + i, eager, lease -> {
                    Thread.sleep(round * 7L);
                    return null;
                });
            }
            long before = extensionCalls(nodes);
            await().pollDelay(TTL.multipliedBy(2)).atMost(TTL.multipliedBy(3)).until(() -> true);
            assertThat(extensionCalls(nodes)).as("script calls after every release").isEqualTo(before);
            for (int i = 0; i < 20; i++) {
                assertThat(ItSupport.absentEverywhere(nodes, "released-" + i)).isTrue();
            }
        }
    }

    private static long extensionCalls(RedisNodes nodes) {
        long calls = 0;
        for (RedisServer node : nodes) {
            String stats = node.redis(r -> r.info("commandstats"));
            for (String line : stats.split("\r?\n")) {
                if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                    calls += Long.parseLong(line.replaceAll(".*calls=(\\d+).*", "$1"));
                }
            }
        }
        return calls;
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
    void withLockAsyncReportsALossAsLeaseLostExceptionAndTellsTheListener(RedisNodes nodes) {
        AtomicReference<LossReason> told = new AtomicReference<>();
        try (Redlock redlock = redlockOn(nodes).build()) {
            CompletableFuture<String> result = redlock.<String>withLockAsync("lost-async", SHORT, lease -> {
                lease.onLost((l, reason) -> told.set(reason));
                ItSupport.awaitOnEveryNode(nodes, "lost-async");
                for (RedisServer node : nodes) {
                    node.redis(r -> r.del("lost-async")); // the next extension is refused
                }
                return CompletableFuture.supplyAsync(() -> "finished",
                        CompletableFuture.delayedExecutor(TTL.multipliedBy(3).toMillis(), TimeUnit.MILLISECONDS));
            }).toCompletableFuture();
            assertThat(result).failsWithin(Duration.ofSeconds(10)).withThrowableThat()
                    .havingCause().isInstanceOfSatisfying(LeaseLostException.class,
                            e -> assertThat(e.reason()).isEqualTo(LossReason.EXTENSION_REFUSED));
            assertThat(told.get()).isEqualTo(LossReason.EXTENSION_REFUSED);
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

    @Test
    void aListenerAddedAfterTheLossIsCalledAtOnce(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            AtomicReference<Lease> kept = new AtomicReference<>();
            assertThatThrownBy(() -> redlock.withLock("late-listener", SHORT, lease -> {
                kept.set(lease);
                ItSupport.awaitOnEveryNode(nodes, "late-listener");
                for (RedisServer node : nodes) {
                    node.redis(r -> r.del("late-listener"));
                }
                Thread.sleep(TTL.multipliedBy(3).toMillis());
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
        try (Redlock redlock = redlockOn(nodes).leaseListener((lease, reason) -> lost.add(lease.resource() + " "
                + reason)).build()) {
            redlock.tryAcquire("forgotten", units(5)).orElseThrow();
            redlock.tryAcquire("released", units(5)).orElseThrow().release();
            await().atMost(Duration.ofSeconds(3)).until(() -> !lost.isEmpty());
            await().pollDelay(units(6)).atMost(units(8)).until(() -> true);
            assertThat(lost).containsExactly("forgotten EXPIRED");
        }
    }
}
