package io.redlock.internal.acquire;

import io.redlock.Lease;
import io.redlock.RedlockObserver;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The stage of one acquire call, which also tells how the call ended ({@link #outcome()}, as the observer hears it):
 * so {@code withLock} can say whether "not acquired" was contention or too few nodes answering.
 */
public final class Acquiring extends CompletableFuture<Optional<Lease>> {

    private volatile RedlockObserver.AcquireResult outcome;

    /** Set before the stage completes. */
    void ended(RedlockObserver.AcquireResult outcome) {
        this.outcome = outcome;
    }

    /** How the call ended; null while it runs. */
    RedlockObserver.AcquireResult outcome() {
        return outcome;
    }

    /** True if the call ended without a lease because its last round could not reach a majority. */
    public boolean nodesUnavailable() {
        return outcome == RedlockObserver.AcquireResult.ERROR;
    }
}
