package io.redlock.internal.locks;

import io.redlock.Lease;
import io.redlock.RedlockInterruptedException;
import io.redlock.internal.lease.RedlockLease;
import io.redlock.internal.time.Deadline;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One blocking call of a {@link RedlockLockImpl}: its deadline, and what an interrupt does to it — an interruptible
 * call gives up, an uninterruptible one remembers the interrupt (the caller sets the flag again when it returns).
 * Used by the calling thread only.
 */
final class LockWait {

    final Deadline deadline;
    private final boolean interruptible;
    private boolean interrupted;

    LockWait(Deadline deadline, boolean interruptible) {
        this.deadline = deadline;
        this.interruptible = interruptible;
    }

    /** Rethrows for an interruptible wait; an uninterruptible one remembers it and goes on. */
    void interrupted(InterruptedException e) throws InterruptedException {
        if (interruptible) {
            throw e;
        }
        interrupted = true;
    }

    /** Whether an interrupt arrived during an uninterruptible wait. */
    boolean wasInterrupted() {
        return interrupted;
    }

    /**
     * Waits for {@code attempt} (an acquisition on the nodes) as this wait allows; an interrupt that ends the wait
     * cancels the attempt, and a lease it wins after that is released at once.
     */
    Optional<RedlockLease> await(CompletableFuture<Optional<Lease>> attempt, String resource)
            throws InterruptedException {
        while (true) {
            try {
                return attempt.get().map(RedlockLease.class::cast);
            } catch (InterruptedException e) {
                try {
                    interrupted(e);
                } catch (InterruptedException giveUp) {
                    attempt.cancel(false);
                    throw giveUp;
                }
            } catch (ExecutionException e) {
                throw Blocking.unwrap(e.getCause(), "lock " + resource);
            } catch (CancellationException e) {
                throw new RedlockInterruptedException("lock " + resource + " was cancelled", new InterruptedException());
            }
        }
    }
}
