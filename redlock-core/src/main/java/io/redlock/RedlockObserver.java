package io.redlock;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Told what a {@link Redlock} does, for metrics and tracing: every acquisition call (as it starts and as it ends),
 * every hold of a kept-alive lease, every extension, every node failure, every lease lost. Added with
 * {@link Redlock#addObserver}. Called on library threads: return quickly,
 * do not block. Exceptions thrown here are logged and ignored. All methods default to doing nothing.
 */
public interface RedlockObserver {

    /** How an acquisition call ended. */
    enum AcquireResult {
        /** A lease was granted. */
        ACQUIRED,
        /** Not acquired within the wait: the last round found the lock held by another client (or split the vote). */
        BUSY,
        /**
         * The call threw (errors retrying cannot fix, closed Redlock, bad argument), or its last round could not reach
         * a majority because too many nodes were down, timed out or failed.
         */
        ERROR
    }

    /** One acquisition call in progress, as {@link #acquisitionStarted} began it. */
    @FunctionalInterface
    interface Acquisition {

        /** Nothing to end: what {@link #acquisitionStarted} returns by default. */
        Acquisition NONE = (result, failure) -> {
        };

        /**
         * The call ended, exactly once, before {@link #acquisition} is told: {@code failure} is what the call threw,
         * if it threw.
         */
        void ended(AcquireResult result, Optional<Throwable> failure);
    }

    /** One hold of a kept-alive lease in progress, as {@link #holdStarted} began it. */
    @FunctionalInterface
    interface Hold {

        /** Nothing to end: what {@link #holdStarted} returns by default. */
        Hold NONE = lost -> {
        };

        /** The hold ended, exactly once: released by its holder, or {@code lost} for that reason. */
        void ended(Optional<LossReason> lost);
    }

    /**
     * An acquisition call of {@code resource} starts: called on the caller's thread before its first round, so a
     * tracer finds the caller's span there. The returned {@link Acquisition} is ended when the call ends.
     */
    default Acquisition acquisitionStarted(String resource) {
        return Acquisition.NONE;
    }

    /**
     * An acquisition call of a lock of {@code kind} starts: what the library calls. By default
     * {@link #acquisitionStarted(String)}, for observers that do not tell kinds apart.
     */
    default Acquisition acquisitionStarted(String resource, LockTarget.Kind kind) {
        return acquisitionStarted(resource);
    }

    /**
     * A lease starts being kept alive — by {@code withLock}, a {@link RedlockLock}, {@code @Locked},
     * {@code ReactiveRedlock.withLock} — on the thread that starts its watchdog (the caller's, except after an
     * asynchronous acquisition). The returned {@link Hold} is ended when the lease is released or lost. Bare leases of
     * {@code tryAcquire}/{@code acquire}, which nothing keeps alive, have no hold.
     */
    default Hold holdStarted(Lease lease) {
        return Hold.NONE;
    }

    /** An acquisition call (all its rounds) ended after {@code took}. */
    default void acquisition(String resource, AcquireResult result, Duration took) {
    }

    /**
     * An acquisition call of a lock of {@code kind} ended after {@code took}: what the library calls. By default
     * {@link #acquisition(String, AcquireResult, Duration)}, for observers that do not tell kinds apart.
     */
    default void acquisition(String resource, LockTarget.Kind kind, AcquireResult result, Duration took) {
        acquisition(resource, result, took);
    }

    /** An extension ended after {@code took}; {@code extended} if a majority confirmed. */
    default void extension(String resource, boolean extended, Duration took) {
    }

    /** A node did not answer a round, or answered with an error. */
    default void nodeFailed(NodeFailure failure) {
    }

    /**
     * A lease of this client was lost before it was released: the holder can no longer assume it is alone (the same
     * news as {@link Lease#onLost}, for every lease). Told once per lease. While an observer that overrides this
     * method is added, every lease is watched for losses, those of {@code tryAcquire} and {@code acquire} too, at
     * the cost of a timer per lease; otherwise those are watched only when a listener is registered on them.
     */
    default void leaseLost(Lease lease, LossReason reason) {
    }

    /** An observer of losses alone: {@code listener} is told of every lease lost, as {@link #leaseLost} is. */
    static RedlockObserver lossesTo(LeaseListener listener) {
        Objects.requireNonNull(listener, "listener");
        return new RedlockObserver() {
            @Override
            public void leaseLost(Lease lease, LossReason reason) {
                listener.onLost(lease, reason);
            }
        };
    }
}
