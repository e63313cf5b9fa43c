package io.redlock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * One successful acquisition of a resource: the proof that a majority of nodes holds the lock key with this lease's
 * random value. Work under the lock is protected only while {@link #isValid()}.
 *
 * <p>Not bound to a thread: any thread may extend or release it. Thread-safe. {@link #close()} releases, so a lease
 * fits try-with-resources.
 */
public interface Lease extends AutoCloseable {

    /** The resource name as given to acquire (without the key prefix). */
    String resource();

    /** The random value that signs this lease: 20 bytes from {@code SecureRandom}, base64url, unique per acquisition. */
    String value();

    /**
     * The fencing token (FENCING.md): larger than the token of every lease on this resource that came before this
     * one. Send it with every write to the protected storage, which must refuse a token smaller than one it has
     * seen ({@code io.redlock.fencing}). An exact integer below 2^53.
     *
     * @throws RedlockException if the Redlock was built with {@code fencing(false)}
     */
    long fencingToken();

    /** The {@link Ticker} reading at which the lease stops being valid. */
    long validUntil();

    /** Time left before the lease stops being valid; zero once expired or released. */
    Duration remainingValidity();

    /** True while the lease is neither released, nor lost, nor past its validity. */
    boolean isValid();

    /** Why the lease was lost, if it was; empty while it is held, after a release, or for a lease that merely expired unwatched. */
    Optional<LossReason> lossReason();

    /**
     * Registers a listener told once if this lease is lost before it is released: an extension fails, the validity
     * runs out, or the maximum hold time is reached. Called at once if the lease is already lost. For a lease that is
     * not auto-extended, "lost" means its validity ran out before {@link #release()}.
     */
    void onLost(LeaseListener listener);

    /**
     * Sets the TTL of the lock key to {@code ttl} on every node that still holds this lease's value. Succeeds only if
     * a majority confirms and validity remains, computed like an acquisition from the moment the extension started;
     * the lease's validity is then renewed. Never re-creates a key that expired. Returns false for a lease that is
     * released or already past its validity.
     */
    default boolean extend(Duration ttl) {
        return io.redlock.internal.locks.Blocking.await(extendAsync(ttl), "extend " + resource()).booleanValue();
    }

    /** Asynchronous {@link #extend(Duration)}. */
    CompletionStage<Boolean> extendAsync(Duration ttl);

    /**
     * Deletes the lock key on every node where it still holds this lease's value (compare-and-delete). Returns once a
     * majority of nodes answered (from then on the lock is free for others), at most after the per-node timeout; the
     * deletes to the other nodes are already sent and complete in the background, and reach a node before any later
     * command of this {@code Redlock} to it. Idempotent; never deletes another holder's key. Nodes that cannot be
     * reached keep the key until it expires.
     */
    default void release() {
        io.redlock.internal.locks.Blocking.await(releaseAsync(), "release " + resource());
    }

    /** Asynchronous {@link #release()}; every call returns the same stage. */
    CompletionStage<Void> releaseAsync();

    /**
     * Ends the lease but leaves the lock taken for {@code keep} more, for a minimum hold time (ShedLock's
     * {@code lockAtLeastFor}): the lock key is re-expired to {@code keep} (rounded up to whole milliseconds) on every
     * node that holds this lease's value and then left to expire, never deleted; no watchdog extends it any more. A
     * minimum hold is never shortened: a node the re-expiry does not reach keeps the expiry it had, so however short
     * {@code keep} and whatever the nodes answer, no node frees the lock sooner. A {@link #release()} instead when
     * {@code keep} is zero or less, or the lease was already released or lost.
     */
    default void releaseAfter(Duration keep) {
        io.redlock.internal.locks.Blocking.await(releaseAfterAsync(keep), "release " + resource());
    }

    /** Asynchronous {@link #releaseAfter(Duration)}. */
    CompletionStage<Void> releaseAfterAsync(Duration keep);

    /** Same as {@link #release()}. */
    @Override
    default void close() {
        release();
    }
}
