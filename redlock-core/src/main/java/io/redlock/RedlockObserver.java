package io.redlock;

import java.time.Duration;

/**
 * Told what a {@link Redlock} does, for metrics: every acquisition call, every extension, every node failure. Called
 * on library threads: return quickly, do not block. Exceptions thrown here are logged and ignored. All methods
 * default to doing nothing.
 */
public interface RedlockObserver {

    /** How an acquisition call ended. */
    enum AcquireResult {
        /** A lease was granted. */
        ACQUIRED,
        /** Not acquired within the wait: held by another client, or too few nodes answered. */
        BUSY,
        /** The call threw (misconfigured nodes, closed Redlock, bad argument). */
        ERROR
    }

    /** An acquisition call (all its rounds) ended after {@code took}. */
    default void acquisition(String resource, AcquireResult result, Duration took) {
    }

    /** An extension ended after {@code took}; {@code extended} if a majority confirmed. */
    default void extension(String resource, boolean extended, Duration took) {
    }

    /** A node did not answer a round, or answered with an error. */
    default void nodeFailed(NodeFailure failure) {
    }
}
