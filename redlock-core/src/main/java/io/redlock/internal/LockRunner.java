package io.redlock.internal;

import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.LeaseWork;
import io.redlock.LeaseWorkException;
import io.redlock.LockNotAcquiredException;
import io.redlock.LockTarget;
import io.redlock.LossReason;
import io.redlock.internal.node.Failures;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** {@code withLock} and {@code withLockAsync}: acquire, keep alive while the work runs, release, report a loss. */
final class LockRunner {

    private final Engine engine;
    private final EnclosingLeases enclosing = new EnclosingLeases();

    LockRunner(Engine engine) {
        this.engine = engine;
    }

    /**
     * Runs {@code work} on the calling thread under the lock. A call nested in another {@code withLock} of this thread
     * on one of the same resources whose lease was lost throws {@link LeaseLostException} without acquiring.
     */
    <T> T withLock(LockTarget target, LockPlan options, LeaseWork<T> work) {
        enclosing.refuseIfBroken(target);
        RedlockLease lease = acquire(target, options);
        Watchdog dog = keepAlive(engine, lease, options);
        dog.interruptOnLoss(Thread.currentThread());
        T value = null;
        Throwable failure = null;
        try {
            value = enclosing.within(target, lease, () -> work.run(lease));
        } catch (Throwable t) {
            failure = t;
        } finally {
            boolean interruptedByUs = dog.detachWorker();
            dog.awaitListenersTold();
            if (interruptedByUs || dog.detachWorker()) {
                Thread.interrupted(); // the interrupt was ours, to stop the work; do not leak it to the caller
            }
        }
        engine.events().settleBeforeRelease(lease);
        end(engine, lease, options).toCompletableFuture().join(); // uninterruptible, bounded by the node timeout
        return outcome(lease, value, failure);
    }

    /** Runs {@code work} under the lock and completes when the stage it returns completes and the lease is released. */
    <T> CompletionStage<T> withLockAsync(LockTarget target, LockPlan options,
            LeaseWork<? extends CompletionStage<T>> work) {
        Acquiring acquiring = engine.acquire(target, options.ttl(), options.maxWait());
        return acquiring.thenCompose(acquired -> {
            RedlockLease lease = (RedlockLease) acquired.orElseThrow(() -> notAcquired(target, options, acquiring));
            keepAlive(engine, lease, options);
            CompletionStage<T> stage;
            try {
                stage = work.run(lease);
            } catch (Exception e) {
                stage = CompletableFuture.failedFuture(e);
            }
            // waits for the listeners without blocking: this may be an event loop, or a listener ending the work
            return stage.handle((value, failure) -> Watchdog.of(engine, lease).listenersTold().thenCompose(told -> {
                engine.events().settleBeforeRelease(lease);
                return end(engine, lease, options).thenApply(released -> outcome(lease, value,
                        failure == null ? null : Failures.unwrap(failure)));
            })).thenCompose(released -> released);
        });
    }

    /** Releases the lease, or keeps the lock taken until the minimum hold time since its grant is over. */
    static CompletionStage<Void> end(Engine engine, RedlockLease lease, LockPlan options) {
        long left = lease.grantedAt() + options.minHold().toNanos() - engine.nodes().ticker().read();
        return left > 0 ? lease.releaseAfterAsync(Duration.ofNanos(left)) : lease.releaseAsync();
    }

    private RedlockLease acquire(LockTarget target, LockPlan options) {
        Acquiring acquiring = engine.acquire(target, options.ttl(), options.maxWait());
        Optional<Lease> lease = Blocking.await(acquiring, "withLock " + target.name());
        return (RedlockLease) lease.orElseThrow(() -> notAcquired(target, options, acquiring));
    }

    private static LockNotAcquiredException notAcquired(LockTarget target, LockPlan options, Acquiring acquiring) {
        return new LockNotAcquiredException(target.name(), options.maxWait(), acquiring.nodesUnavailable());
    }

    /** Turns on auto-extension for a lease just acquired. */
    static Watchdog keepAlive(Engine engine, RedlockLease lease, LockPlan options) {
        Watchdog dog = Watchdog.of(engine, lease);
        dog.autoExtend(options.ttl(), options.extendWhenRemaining(), options.maxHold());
        return dog;
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
