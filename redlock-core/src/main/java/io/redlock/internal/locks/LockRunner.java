package io.redlock.internal.locks;

import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.LeaseWork;
import io.redlock.LeaseWorkException;
import io.redlock.LockNotAcquiredException;
import io.redlock.LockTarget;
import io.redlock.LossReason;
import io.redlock.Ticker;
import io.redlock.internal.acquire.Acquiring;
import io.redlock.internal.acquire.Acquisitions;
import io.redlock.internal.lease.LossNotice;
import io.redlock.internal.lease.RedlockLease;
import io.redlock.internal.lease.Watchdog;
import io.redlock.internal.node.Failures;
import io.redlock.internal.parts.Events;
import io.redlock.internal.parts.Parts;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code withLock} and {@code withLockAsync}: acquire, keep alive while the work runs, release, report a loss. */
public final class LockRunner {

    private static final Logger log = LoggerFactory.getLogger(LockRunner.class);

    private final Parts parts;
    private final Acquisitions acquisitions;
    private final EnclosingLeases enclosing = new EnclosingLeases();

    public LockRunner(Parts parts, Acquisitions acquisitions) {
        this.parts = parts;
        this.acquisitions = acquisitions;
    }

    /**
     * Runs {@code work} on the calling thread under the lock. A call nested in another {@code withLock} of this thread
     * on one of the same resources whose lease was lost throws {@link LeaseLostException} without acquiring.
     */
    public <T> T withLock(LockTarget target, LockPlan options, LeaseWork<T> work) {
        enclosing.refuseIfBroken(target);
        RedlockLease lease = acquire(target, options);
        LossNotice notice = keepAlive(lease, options).notice();
        notice.interruptOnLoss(Thread.currentThread());
        T value = null;
        Throwable failure = null;
        try {
            value = enclosing.within(target, lease, () -> work.run(lease));
        } catch (Throwable t) {
            failure = t;
        } finally {
            boolean interruptedByUs = notice.detachWorker();
            notice.awaitListenersTold();
            if (interruptedByUs || notice.detachWorker()) {
                Thread.interrupted(); // the interrupt was ours, to stop the work; do not leak it to the caller
            }
        }
        settleBeforeRelease(parts.events(), lease);
        end(parts.ticker(), lease, options).toCompletableFuture().join(); // uninterruptible, bounded by the node timeout
        return outcome(lease, value, failure);
    }

    /** Runs {@code work} under the lock and completes when the stage it returns completes and the lease is released. */
    public <T> CompletionStage<T> withLockAsync(LockTarget target, LockPlan options,
            LeaseWork<? extends CompletionStage<T>> work) {
        Acquiring acquiring = acquisitions.acquire(target, options.ttl(), options.maxWait());
        return acquiring.thenCompose(acquired -> {
            RedlockLease lease = (RedlockLease) acquired.orElseThrow(() -> notAcquired(target, options, acquiring));
            keepAlive(lease, options);
            CompletionStage<T> stage;
            try {
                stage = work.run(lease);
            } catch (Exception e) {
                stage = CompletableFuture.failedFuture(e);
            }
            // waits for the listeners without blocking: this may be an event loop, or a listener ending the work
            return stage.handle((value, failure) -> lease.watch().notice().listenersTold().thenCompose(told -> {
                settleBeforeRelease(parts.events(), lease);
                return end(parts.ticker(), lease, options).thenApply(released -> outcome(lease, value,
                        failure == null ? null : Failures.unwrap(failure)));
            })).thenCompose(released -> released);
        });
    }

    /** Releases the lease, or keeps the lock taken until the minimum hold time since its grant is over. */
    static CompletionStage<Void> end(Ticker ticker, RedlockLease lease, LockPlan options) {
        long left = lease.grantedAt() + options.minHold().toNanos() - ticker.read();
        return left > 0 ? lease.releaseAfterAsync(Duration.ofNanos(left)) : lease.releaseAsync();
    }

    private RedlockLease acquire(LockTarget target, LockPlan options) {
        Acquiring acquiring = acquisitions.acquire(target, options.ttl(), options.maxWait());
        Optional<Lease> lease = Blocking.await(acquiring, "withLock " + target.name());
        return (RedlockLease) lease.orElseThrow(() -> notAcquired(target, options, acquiring));
    }

    private static LockNotAcquiredException notAcquired(LockTarget target, LockPlan options, Acquiring acquiring) {
        return new LockNotAcquiredException(target.name(), options.maxWait(), acquiring.nodesUnavailable());
    }

    /** Turns on auto-extension for a lease just acquired. */
    private static Watchdog keepAlive(RedlockLease lease, LockPlan options) {
        Watchdog dog = lease.watch();
        dog.autoExtend(options.ttl(), options.extendWhenRemaining(), options.maxHold());
        return dog;
    }

    /**
     * For a holder about to release: the loss of the lease, if it was lost or its validity ran out before the
     * watchdog noticed (then the listeners, the lease's and the global ones, are told now).
     */
    static Optional<LossReason> settleBeforeRelease(Events events, RedlockLease lease) {
        Optional<LossReason> lost = lease.lossBeforeRelease();
        if (lost.isPresent() && lease.takePendingTell()) {
            log.warn("lost the lock on '{}': {}", lease.resource(), lost.get().description());
            lease.tellListeners(lost.get());
            events.lost(lease, lost.get());
        }
        return lost;
    }

    private static <T> T outcome(RedlockLease lease, T value, Throwable failure) {
        Optional<LossReason> lost = lease.lossReason();
        if (lost.isPresent()) {
            throw new LeaseLostException(lease.resource(), lost.get(), failure);
        }
        if (failure == null) {
            return value;
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        throw new LeaseWorkException(lease.resource(), (Exception) failure);
    }
}
