package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.internal.ManualScheduler;
import io.redlock.internal.Seams;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The watchdog's timing, with the client's ticker and scheduler in the test's hands (the nodes are real): when it
 * extends, how it paces retries against a stalled majority, and that the loss comes exactly when the validity runs
 * out. Nothing here sleeps.
 */
@WithRedisNodes(5)
class WatchdogTimingIT {

    private static final Duration TTL = Duration.ofSeconds(30);
    /** 1 % of the TTL plus 2 ms. */
    private static final Duration DRIFT = Duration.ofMillis(302);
    private static final Duration EXTEND_WHEN_REMAINING = TTL.dividedBy(3);
    /** An extension is due this long after the lease was taken or renewed (no time passes in its rounds). */
    private static final Duration EXTENSION_DUE = TTL.minus(DRIFT).minus(EXTEND_WHEN_REMAINING);

    private final FakeTicker ticker = new FakeTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    private Redlock onFakeTime(RedisNodes nodes) {
        // random 0: no spread before the extension threshold
        Seams seams = Seams.defaults().scheduler(scheduler).random(() -> () -> 0L);
        return TestSeams.with(redlockOn(nodes), seams).ticker(ticker).build();
    }

    /** Holds {@code resource} with a watchdog until {@code done} completes; returns the lease. */
    private static Lease holdUntil(Redlock redlock, String resource, CompletableFuture<Void> done,
            AtomicReference<CompletionStage<Void>> result) {
        AtomicReference<Lease> held = new AtomicReference<>();
        result.set(redlock.withLockAsync(resource, LockOptions.builder().ttl(TTL).build(), lease -> {
            held.set(lease);
            return done;
        }));
        await().atMost(units(50)).until(() -> held.get() != null);
        return held.get();
    }

    @Test
    void extendsWhenTheThresholdIsReachedThenAgainAfterEachRenewal(RedisNodes nodes) {
        try (Redlock redlock = onFakeTime(nodes)) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            AtomicReference<CompletionStage<Void>> result = new AtomicReference<>();
            Lease lease = holdUntil(redlock, "watched", done, result);
            assertThat(scheduler.pending()).contains(EXTENSION_DUE, TTL.minus(DRIFT), LockOptions.DEFAULT_MAX_HOLD);

            for (int renewal = 1; renewal <= 3; renewal++) {
                long before = lease.validUntil();
                scheduler.advance(EXTENSION_DUE);
                await().atMost(units(50)).until(() -> lease.validUntil() != before);
                assertThat(lease.validUntil() - before).as("renewal %d", renewal)
                        .isEqualTo(EXTENSION_DUE.toNanos());
            }
            assertThat(lease.isValid()).isTrue();
            done.complete(null);
            assertThat(result.get().toCompletableFuture()).succeedsWithin(units(50));
        }
    }

    @Test
    void againstAStalledMajorityItRetriesAtItsPaceAndLosesTheLeaseExactlyAtTheEndOfItsValidity(RedisNodes nodes) {
        List<RedisServer> stalled = nodes.servers().subList(0, 3);
        try (Redlock redlock = onFakeTime(nodes)) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            AtomicReference<CompletionStage<Void>> result = new AtomicReference<>();
            Lease lease = holdUntil(redlock, "stalled-majority", done, result);
            ItSupport.awaitOnEveryNode(nodes, "stalled-majority");
            stalled.forEach(RedisServer::pause);
            try {
                Duration nodeTimeout = ItSupport.NODE_TIMEOUT;
                scheduler.advance(EXTENSION_DUE); // the first extension goes out: two live nodes, three stalled
                scheduler.advance(nodeTimeout); // and fails at the per-node timeout
                Duration left = EXTEND_WHEN_REMAINING.minus(nodeTimeout);
                Duration retry = EXTEND_WHEN_REMAINING.dividedBy(4); // less than a third of what is left
                assertThat(scheduler.pending().get(0)).as("the first retry").isEqualTo(retry);
                scheduler.advance(retry.plus(nodeTimeout)); // the second round goes out and fails
                left = left.minus(retry).minus(nodeTimeout);
                assertThat(scheduler.pending().get(0)).as("the second retry: a third of what is left")
                        .isEqualTo(left.dividedBy(3));

                Duration rest = Duration.ofNanos(lease.validUntil() - ticker.read());
                assertThat(rest).isEqualTo(left);
                scheduler.advance(rest.minusMillis(1));
                assertThat(lease.lossReason()).as("1 ms before the validity runs out").isEmpty();
                scheduler.advance(Duration.ofMillis(1));
                assertThat(lease.lossReason()).contains(LossReason.EXPIRED);
            } finally {
                stalled.forEach(RedisServer::resume);
            }
            done.complete(null);
            assertThat(result.get().toCompletableFuture()).failsWithin(units(50)).withThrowableThat()
                    .havingRootCause().isInstanceOf(LeaseLostException.class);
        }
    }
}
