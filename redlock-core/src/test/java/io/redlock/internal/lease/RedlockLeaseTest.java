package io.redlock.internal.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.FakeTicker;
import io.redlock.LossReason;
import io.redlock.internal.protocol.Keys;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Lease state against a fake ticker: validity, renewal, and release happening once. */
class RedlockLeaseTest {

    private final FakeTicker ticker = new FakeTicker();
    private final AtomicInteger releases = new AtomicInteger();
    private final CompletableFuture<Void> releaseDone = new CompletableFuture<>();
    private final List<Duration> extensions = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final List<Duration> reExpiries = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean reExpiriesFail;
    private final LeaseOps ops = new LeaseOps() {
        @Override
        public CompletableFuture<Boolean> extend(RedlockLease lease, Duration ttl) {
            extensions.add(ttl);
            return CompletableFuture.completedFuture(true);
        }

        @Override
        public CompletableFuture<Void> reExpire(RedlockLease lease, Duration keep) {
            reExpiries.add(keep);
            return reExpiriesFail ? CompletableFuture.failedFuture(new IllegalStateException("no node answered"))
                    : CompletableFuture.completedFuture(null);
        }

        @Override
        public CompletableFuture<Void> release(RedlockLease lease) {
            releases.incrementAndGet();
            return releaseDone;
        }

        @Override
        public Watchdog watch(RedlockLease lease) {
            watched.incrementAndGet();
            return null;
        }
    };
    private final AtomicInteger watched = new AtomicInteger();

    private RedlockLease lease(Duration validFor) {
        return new RedlockLease(ops, ticker, "orders:42", Keys.of("app:orders:42"), "abcdefghijklmnopqrstuvwxyz0",
                ticker.read() + validFor.toNanos(),
                new Footprint(List.of(CompletableFuture.completedFuture("OK")), ticker.read() + validFor.toNanos()), 7);
    }

    @Test
    void releaseAfterReExpiresToWholeMillisecondsAndEndsTheLeaseWithoutADelete() {
        RedlockLease lease = lease(Duration.ofSeconds(10));
        assertThat(lease.releaseAfterAsync(Duration.ofNanos(1_500_000_001L)).toCompletableFuture()).isDone();
        assertThat(reExpiries).containsExactly(Duration.ofMillis(1501));
        assertThat(extensions).isEmpty();
        assertThat(lease.isValid()).isFalse();
        assertThat(lease.lossReason()).isEmpty();
        lease.releaseAsync();
        assertThat(releases).as("the key is left to expire").hasValue(0);
    }

    @Test
    void releaseAfterNeverDeletesHoweverShortTheKeepOrWhateverTheNodesAnswer() {
        RedlockLease shortKeep = lease(Duration.ofSeconds(10));
        assertThat(shortKeep.releaseAfterAsync(Duration.ofNanos(1)).toCompletableFuture()).isDone();
        assertThat(reExpiries).containsExactly(Duration.ofMillis(1));
        assertThat(shortKeep.isValid()).isFalse();

        reExpiriesFail = true;
        RedlockLease unanswered = lease(Duration.ofSeconds(10));
        assertThat(unanswered.releaseAfterAsync(Duration.ofSeconds(1)).toCompletableFuture()).isDone();
        assertThat(reExpiries).containsExactly(Duration.ofMillis(1), Duration.ofSeconds(1));
        assertThat(releases).as("no delete: the keys keep the expiry they have").hasValue(0);

        RedlockLease none = lease(Duration.ofSeconds(10));
        none.releaseAfterAsync(Duration.ZERO);
        assertThat(releases).as("nothing to keep: a release").hasValue(1);
    }

    @Test
    void isValidUntilTheValidityRunsOut() {
        RedlockLease lease = lease(Duration.ofMillis(1_000));
        assertThat(lease.isValid()).isTrue();
        assertThat(lease.remainingValidity()).isEqualTo(Duration.ofMillis(1_000));
        ticker.advance(Duration.ofMillis(999));
        assertThat(lease.isValid()).isTrue();
        assertThat(lease.remainingValidity()).isEqualTo(Duration.ofMillis(1));
        ticker.advance(Duration.ofMillis(1));
        assertThat(lease.isValid()).isFalse();
        assertThat(lease.remainingValidity()).isZero();
    }

    @Test
    void renewMovesTheDeadlineAndShortenNeverExtends() {
        RedlockLease lease = lease(Duration.ofMillis(1_000));
        long start = ticker.read();
        lease.renew(start + Duration.ofMillis(5_000).toNanos());
        assertThat(lease.remainingValidity()).isEqualTo(Duration.ofMillis(5_000));
        lease.shortenTo(start + Duration.ofMillis(9_000).toNanos());
        assertThat(lease.remainingValidity()).isEqualTo(Duration.ofMillis(5_000));
        lease.shortenTo(start + Duration.ofMillis(200).toNanos());
        assertThat(lease.remainingValidity()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void releaseRunsOnceAndInvalidatesAtOnce() {
        RedlockLease lease = lease(Duration.ofMillis(1_000));
        var first = lease.releaseAsync().toCompletableFuture();
        var second = lease.releaseAsync().toCompletableFuture();
        assertThat(lease.isValid()).isFalse();
        assertThat(lease.remainingValidity()).isZero();
        assertThat(releases).hasValue(1);
        assertThat(first).isNotDone();
        releaseDone.complete(null);
        assertThat(first).isCompleted();
        assertThat(second).isCompleted();
        lease.close();
        assertThat(releases).hasValue(1);
    }

    @Test
    void aReleasedLeaseIsNotRevivedByALateRenewal() {
        RedlockLease lease = lease(Duration.ofMillis(1_000));
        lease.releaseAsync();
        lease.renew(ticker.read() + Duration.ofSeconds(30).toNanos());
        assertThat(lease.isValid()).isFalse();
    }

    @Test
    void aLostLeaseIsNotRevivedByALateRenewal() {
        RedlockLease lease = lease(Duration.ofMillis(1_000));
        long lostAt = lease.validUntil();
        lease.markLost(LossReason.EXTENSION_REFUSED);
        assertThat(lease.renew(ticker.read() + Duration.ofSeconds(30).toNanos())).isFalse();
        assertThat(lease.validUntil()).isEqualTo(lostAt);
        assertThat(lease.isValid()).isFalse();
    }

    @Test
    void aLeaseWhoseValidityRanOutIsNotRevivedByALateRenewal() {
        RedlockLease lease = lease(Duration.ofMillis(1_000));
        ticker.advance(Duration.ofMillis(1_000)); // the loss is not declared yet: the expiry check has not run
        assertThat(lease.isValid()).isFalse();
        assertThat(lease.renew(ticker.read() + Duration.ofSeconds(30).toNanos())).isFalse();
        assertThat(lease.isValid()).isFalse();
        assertThat(lease.remainingValidity()).isZero();
    }

    @Test
    void aLostLeaseIsInvalidAndEachListenerIsToldOnce() {
        RedlockLease lease = lease(Duration.ofMillis(1_000));
        List<LossReason> told = new java.util.ArrayList<>();
        lease.onLost((l, reason) -> told.add(reason));
        assertThat(watched).hasValue(1);
        assertThat(lease.markLost(LossReason.EXPIRED)).isTrue();
        assertThat(lease.markLost(LossReason.MAX_HOLD)).isFalse();
        assertThat(lease.isValid()).isFalse();
        assertThat(lease.lossReason()).contains(LossReason.EXPIRED);
        lease.tellListeners(LossReason.EXPIRED);
        lease.tellListeners(LossReason.EXPIRED);
        lease.onLost((l, reason) -> told.add(reason)); // registered after the loss: told at once
        assertThat(told).containsExactly(LossReason.EXPIRED, LossReason.EXPIRED);
    }

    @Test
    void aReleasedLeaseCannotBeLost() {
        RedlockLease lease = lease(Duration.ofMillis(1_000));
        lease.releaseAsync();
        assertThat(lease.markLost(LossReason.EXPIRED)).isFalse();
        assertThat(lease.lossReason()).isEmpty();
    }

    @Test
    void aListenerThatThrowsDoesNotStopTheOthers() {
        RedlockLease lease = lease(Duration.ofMillis(1_000));
        List<String> told = new java.util.ArrayList<>();
        lease.onLost((l, reason) -> {
            throw new IllegalStateException("listener bug");
        });
        lease.onLost((l, reason) -> told.add("second"));
        lease.markLost(LossReason.EXTENSION_REFUSED);
        lease.tellListeners(LossReason.EXTENSION_REFUSED);
        assertThat(told).containsExactly("second");
    }

    @Test
    void toStringDoesNotPrintTheWholeValue() {
        assertThat(lease(Duration.ofMillis(1_000)).toString()).contains("orders:42").contains("abcdef")
                .doesNotContain("abcdefghijklmnopqrstuvwxyz0");
    }
}
