package io.redlock;

import static io.redlock.ItSupport.NODE_TIMEOUT;
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
            Lease lease = redlock.tryAcquire("orders:42", TTL).orElseThrow();
            assertThat(lease.resource()).isEqualTo("orders:42");
            assertThat(lease.value()).hasSize(27).matches("[A-Za-z0-9_-]+");
            ItSupport.awaitOnEveryNode(nodes, "orders:42");
            for (RedisServer node : nodes) {
                assertThat(node.get("orders:42")).isEqualTo(lease.value());
                assertThat(node.pttl("orders:42")).isBetween(TTL.minus(units(10)).toMillis(), TTL.toMillis());
            }
            lease.release();
        }
    }

    @Test
    void reportsValidityAsTtlMinusElapsedMinusDrift(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            long before = System.nanoTime();
            Lease lease = redlock.tryAcquire("validity", TTL).orElseThrow();
            Duration drift = Duration.ofMillis(100 + 2); // 1 % of 10 s + 2 ms
            assertThat(lease.remainingValidity()).isLessThanOrEqualTo(TTL.minus(drift))
                    .isGreaterThan(TTL.minus(drift).minus(units(10)));
            assertThat(lease.validUntil() - before).isLessThanOrEqualTo(TTL.minus(drift).toNanos() + units(10).toNanos());
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
            CompletableFuture.runAsync(held::release, CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));
            long start = System.nanoTime();
            Optional<Lease> lease = waiter.acquire("handoff", TTL, Duration.ofSeconds(5));
            assertThat(lease).isPresent();
            assertThat(elapsedMillis(start)).isBetween(units(3).toMillis() - 10, Duration.ofSeconds(5).toMillis());
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
            // no round starts after the wait ran out; the last delay that did not fit is not slept either
            assertThat(took).isBetween(maxWait.minus(units(2)).toMillis() - 10,
                    maxWait.plus(NODE_TIMEOUT).plus(units(2)).toMillis());
        }
    }

    @Test
    void asyncAcquisitionsOfOneResourceHaveExactlyOneWinner(RedisNodes nodes) {
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
            Thread.sleep(units(2).toMillis()); // let it wait through a few rounds
            thread.interrupt();
            thread.join(5_000);
            assertThat(thrown.get()).isInstanceOf(RedlockInterruptedException.class);
            held.release();
            // the abandoned acquisition stops retrying and holds nothing
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
