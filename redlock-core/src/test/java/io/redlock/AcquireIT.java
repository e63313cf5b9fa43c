package io.redlock;

import static io.redlock.ItSupport.elapsedMillis;
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
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The acquisition API on five real nodes: what is stored, what is reported, waiting, async, misuse. */
@WithRedisNodes(5)
class AcquireIT {

    private static final Duration TTL = Duration.ofSeconds(10);

    @Test
    void storesTheLeaseValueUnderTheResourceWithTheTtlOnEveryNode(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            long before = System.nanoTime();
            Lease lease = redlock.tryAcquire("orders:42", TTL).orElseThrow();
            assertThat(lease.resource()).isEqualTo("orders:42");
            assertThat(lease.value()).hasSize(27).matches("[A-Za-z0-9_-]+");
            ItSupport.awaitOnEveryNode(nodes, "orders:42");
            for (RedisServer node : nodes) {
                assertThat(node.get("orders:42")).isEqualTo(lease.value());
                long pttl = node.pttl("orders:42");
                // set with the TTL after `before`: at most the TTL, less at most the time since (+2 ms of rounding)
                assertThat(pttl).isBetween(TTL.toMillis() - elapsedMillis(before) - 2, TTL.toMillis());
            }
            lease.release();
        }
    }

    @Test
    void reportsValidityAsTtlMinusElapsedMinusDrift(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            long before = System.nanoTime();
            Lease lease = redlock.tryAcquire("validity", TTL).orElseThrow();
            long after = System.nanoTime();
            long validity = TTL.minus(Duration.ofMillis(100 + 2)).toNanos(); // drift: 1 % of 10 s + 2 ms
            // the attempt started between `before` and `after`: the validity counts from its start
            assertThat(lease.validUntil()).isBetween(before + validity, after + validity);
            long remaining = lease.remainingValidity().toNanos();
            assertThat(remaining).isLessThanOrEqualTo(validity)
                    .isGreaterThanOrEqualTo(validity - (System.nanoTime() - before));
            assertThat(lease.isValid()).isTrue();
            lease.release();
        }
    }

    @Test
    void keyPrefixIsPrependedToTheResource(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).keyPrefix("app:locks:").build()) {
            Lease lease = redlock.tryAcquire("job", TTL).orElseThrow();
            assertThat(lease.resource()).isEqualTo("job");
            ItSupport.awaitOnEveryNode(nodes, "app:locks:job"); // a majority granted: node 0's may still be on its way
            assertThat(nodes.node(0).get("app:locks:job")).isEqualTo(lease.value());
            assertThat(nodes.node(0).get("job")).isNull();
            lease.release();
            assertThat(ItSupport.absentEverywhere(nodes, "app:locks:job")).isTrue();
        }
    }

    @Test
    void everyAcquisitionGetsAFreshValue(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease first = redlock.tryAcquire("fresh", TTL).orElseThrow();
            first.release();
            Lease second = redlock.tryAcquire("fresh", TTL).orElseThrow();
            assertThat(second.value()).isNotEqualTo(first.value());
            second.release();
        }
    }

    @Test
    void acquireWaitsUntilTheHolderReleases(RedisNodes nodes) {
        try (Redlock holder = redlockOn(nodes).build(); Redlock waiter = redlockOn(nodes).build()) {
            Lease held = holder.tryAcquire("handoff", TTL).orElseThrow();
            long start = System.nanoTime();
            CompletableFuture<Void> released = CompletableFuture.runAsync(held::release,
                    CompletableFuture.delayedExecutor(units(3).toMillis(), TimeUnit.MILLISECONDS));
            // the wait is not what is measured: long enough for the release to come on a loaded machine
            Optional<Lease> lease = waiter.acquire("handoff", TTL, Duration.ofSeconds(30));
            assertThat(lease).isPresent();
            assertThat(held.isValid()).as("taken after the holder's release").isFalse();
            assertThat(elapsedMillis(start)).as("not before the release").isGreaterThanOrEqualTo(units(3).toMillis());
            released.join();
        }
    }

    @Test
    void acquireGivesUpOnceTheMaximumWaitIsSpent(RedisNodes nodes) {
        Duration maxWait = units(5);
        try (Redlock holder = redlockOn(nodes).build();
                Redlock waiter = redlockOn(nodes).retry(RetryPolicy.uniform(units(1), units(2))).build()) {
            holder.tryAcquire("busy", TTL).orElseThrow();
            long start = System.nanoTime();
            assertThat(waiter.acquire("busy", TTL, maxWait)).isEmpty();
            long took = elapsedMillis(start);
            // the last delay that did not fit is not slept: it may give up up to one delay early, never earlier
            assertThat(took).isGreaterThanOrEqualTo(maxWait.minus(units(2)).toMillis());
            // the wait ended it, not the holder's lease (that no round starts after the wait ran out is
            // AcquireTimingIT's, on fake time)
            assertThat(took).isLessThan(TTL.toMillis());
        }
    }

    @Test
    void asyncAcquisitionsOfOneResourceHaveAtMostOneWinner(RedisNodes nodes) {
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            List<CompletableFuture<Optional<Lease>>> attempts = List.of(
                    a.tryAcquireAsync("race", TTL).toCompletableFuture(),
                    b.tryAcquireAsync("race", TTL).toCompletableFuture(),
                    a.tryAcquireAsync("race", TTL).toCompletableFuture(),
                    b.tryAcquireAsync("race", TTL).toCompletableFuture());
            long winners = attempts.stream().map(CompletableFuture::join).filter(Optional::isPresent).count();
            assertThat(winners).isLessThanOrEqualTo(1);
            await().atMost(Duration.ofSeconds(5)).until(() -> {
                a.tryAcquire("race", TTL).ifPresent(Lease::release);
                return true;
            });
        }
    }

    @Test
    void asyncAcquireCompletesWithTheLease(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.acquireAsync("async", TTL, Duration.ofSeconds(1)).toCompletableFuture()
                    .get(5, TimeUnit.SECONDS).orElseThrow();
            assertThat(lease.extendAsync(TTL).toCompletableFuture().get(5, TimeUnit.SECONDS)).isTrue();
            lease.releaseAsync().toCompletableFuture().get(5, TimeUnit.SECONDS);
            assertThat(ItSupport.absentEverywhere(nodes, "async")).isTrue();
        }
    }

    @Test
    void interruptingAWaitingAcquireLeavesNoLockBehind(RedisNodes nodes) throws Exception {
        try (Redlock holder = redlockOn(nodes).build(); Redlock waiter = redlockOn(nodes).build()) {
            Lease held = holder.tryAcquire("interrupted", TTL).orElseThrow();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            CountDownLatch waiting = new CountDownLatch(1);
            Thread thread = new Thread(() -> {
                waiting.countDown();
                try {
                    waiter.acquire("interrupted", TTL, Duration.ofSeconds(30));
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            thread.start();
            waiting.await();
            // interrupted while it waits (between rounds or in one), not before it began
            await().atMost(units(50)).until(() -> thread.getState() == Thread.State.WAITING
                    || thread.getState() == Thread.State.TIMED_WAITING);
            thread.interrupt();
            thread.join(5_000);
            assertThat(thrown.get()).isInstanceOf(RedlockInterruptedException.class);
            held.release();
            // the abandoned acquisition stops retrying and holds nothing: a retrying one (every 5-20 ms) would have
            // taken the free lock within 200 ms; on a machine too slow for that the check passes without proving it
            Thread.sleep(units(2).toMillis());
            assertThat(ItSupport.absentEverywhere(nodes, "interrupted")).isTrue();
        }
    }

    @Test
    void invalidArgumentsFailBeforeAnythingIsSent(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            assertThatThrownBy(() -> redlock.tryAcquire(" ", TTL)).isInstanceOf(RedlockConfigException.class)
                    .hasMessageContaining("resource");
            assertThatThrownBy(() -> redlock.tryAcquire("x".repeat(5000), TTL))
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining("5000 bytes");
            assertThatThrownBy(() -> redlock.acquire("ok", TTL, Duration.ofSeconds(-1)))
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining("maxWait");
            assertThatThrownBy(() -> redlock.tryAcquire("ok", Duration.ofMillis(100)))
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining("per-node timeout");
            assertThatThrownBy(() -> redlock.tryAcquire("ok", Duration.ZERO))
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining("ttl must be positive");
            assertThat(ItSupport.absentEverywhere(nodes, "ok")).isTrue();
        }
    }

    @Test
    void aClosedRedlockRefusesNewWorkAndLetsLeasesExpire(RedisNodes nodes) {
        Redlock redlock = redlockOn(nodes).build();
        Lease lease = redlock.tryAcquire("closing", TTL).orElseThrow();
        ItSupport.awaitOnEveryNode(nodes, "closing"); // granted by a majority: node 0's reply may still be on its way
        redlock.close();
        redlock.close();
        assertThatThrownBy(() -> redlock.tryAcquire("closing", TTL)).isInstanceOf(RedlockException.class)
                .hasMessageContaining("closed");
        lease.close(); // does not throw; the keys expire by their TTL
        assertThat(nodes.node(0).get("closing")).isEqualTo(lease.value());
    }

    @Test
    void closeEndsAPendingAcquireAtOnce(RedisNodes nodes) {
        try (Redlock holder = redlockOn(nodes).build()) {
            holder.tryAcquire("pending", TTL).orElseThrow();
            Redlock waiter = redlockOn(nodes).build();
            CompletableFuture<Optional<Lease>> pending =
                    waiter.acquireAsync("pending", TTL, Duration.ofSeconds(30)).toCompletableFuture();
            waiter.close();
            assertThat(pending).failsWithin(Duration.ofSeconds(5));
        }
    }
}
