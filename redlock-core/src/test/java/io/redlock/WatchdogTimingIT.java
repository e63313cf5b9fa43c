package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.internal.parts.Injected;
import io.redlock.internal.time.ManualScheduler;
import io.redlock.internal.time.Scheduler;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The watchdog's timing, with the client's ticker and scheduler in the test's hands (the nodes are real): when it
 * extends (never before the threshold, at most one timer tick after), how it paces retries against a stalled majority,
 * and that the loss comes exactly when the validity runs out. Nothing here sleeps.
 */
@WithRedisNodes(5)
class WatchdogTimingIT {

    private static final Duration TTL = Duration.ofSeconds(30);
    /** 1 % of the TTL plus 2 ms. */
    private static final Duration DRIFT = Duration.ofMillis(302);
    private static final Duration EXTEND_WHEN_REMAINING = TTL.dividedBy(3);
    /** An extension is due this long after the lease was taken or renewed (no time passes in its rounds). */
    private static final Duration EXTENSION_DUE = TTL.minus(DRIFT).minus(EXTEND_WHEN_REMAINING);

    private static final Duration TICK = Scheduler.WATCHDOG_TICK;

    private final FakeTicker ticker = new FakeTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final AtomicInteger failedRounds = new AtomicInteger();

    /** Moves the fake time to {@code at} (a ticker reading), running what falls due on the way. */
    private void advanceTo(long at) {
        scheduler.advance(Duration.ofNanos(at - ticker.read()));
    }

    /** When the lease's next extension round is due: a third of the TTL before its validity ends (no spread). */
    private static long extensionDue(Lease lease) {
        return lease.validUntil() - EXTEND_WHEN_REMAINING.toNanos();
    }

    private Redlock onFakeTime(RedisNodes nodes) {
        // random 0: no spread before the extension threshold
        Injected injected = Injected.defaults().scheduler(scheduler).random(() -> () -> 0L);
        return Observed.build(TestInjection.with(redlockOn(nodes), injected).ticker(ticker), new RedlockObserver() {
            @Override
            public void extension(String resource, boolean extended, Duration took) {
                if (!extended) {
                    failedRounds.incrementAndGet();
                }
            }
        });
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
            assertThat(extensionDue(lease) - ticker.read()).isEqualTo(EXTENSION_DUE.toNanos());

            for (int renewal = 1; renewal <= 3; renewal++) {
                long before = lease.validUntil();
                long due = extensionDue(lease);
                advanceTo(due - 1);
                assertThat(lease.validUntil()).as("renewal %d: not before the threshold", renewal).isEqualTo(before);
                advanceTo(due + TICK.toNanos());
                await().atMost(units(50)).until(() -> lease.validUntil() != before);
                long roundStart = lease.validUntil() - TTL.minus(DRIFT).toNanos();
                assertThat(roundStart).as("renewal %d: at most a tick after the threshold", renewal)
                        .isBetween(due, due + TICK.toNanos());
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
                long nodeTimeout = ItSupport.NODE_TIMEOUT.toNanos();
                long tick = TICK.toNanos();
                long due = extensionDue(lease);
                long retry = EXTEND_WHEN_REMAINING.dividedBy(4).toNanos(); // less than a third of what is left
                // the first extension goes out within a tick of its threshold (two live nodes, three stalled) and
                // fails at the per-node timeout, an exact deadline
                advanceTo(due + tick + nodeTimeout);
                await().atMost(units(50)).until(() -> failedRounds.get() == 1);
                advanceTo(due + nodeTimeout + retry - 1); // before the earliest the retry may go out
                assertThat(failedRounds).as("no retry before its pause").hasValue(1);
                advanceTo(due + tick + nodeTimeout + retry + tick + nodeTimeout); // the retry went out and failed
                await().atMost(units(50)).until(() -> failedRounds.get() == 2);

                advanceTo(lease.validUntil() - 1_000_000);
                assertThat(lease.lossReason()).as("1 ms before the validity runs out").isEmpty();
                advanceTo(lease.validUntil());
                assertThat(lease.lossReason()).contains(LossReason.EXPIRED);
                // each retry waits a third of what is left (at least the per-node timeout): about a dozen rounds
                assertThat(failedRounds.get()).as("rounds against the stalled majority").isBetween(3, 20);
            } finally {
                stalled.forEach(RedisServer::resume);
            }
            done.complete(null);
            assertThat(result.get().toCompletableFuture()).failsWithin(units(50)).withThrowableThat()
                    .havingRootCause().isInstanceOf(LeaseLostException.class);
        }
    }
}
