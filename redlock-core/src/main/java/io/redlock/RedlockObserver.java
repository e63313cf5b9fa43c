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
        /** Not acquired within the wait: the last round found the lock held by another client (or split the vote). */
        BUSY,
        /**
         * The call threw (errors retrying cannot fix, closed Redlock, bad argument), or its last round could not reach
         * a majority because too many nodes were down, timed out or failed.
         */
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
