package io.redlock;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * One successful acquisition of several resources at once ({@link Redlock#acquireAll}): a majority of nodes holds
 * the lock key of every one of them with this lease's random value, each node all of them or none. Each lock key is
 * the resource's own, so a plain lock of any one of the resources — by this library or another Redlock client —
 * conflicts with it. Work under the lock is protected only while {@link #isValid()}.
 *
 * <p>Not bound to a thread: any thread may extend or release it. Thread-safe. {@link #close()} releases, so it fits
 * try-with-resources.
 */
public interface MultiLease extends AutoCloseable {

    /** The resources, as given to acquire and in that order (without the key prefix). */
    List<String> resources();

    /** The random value that signs this lease on every resource's lock key. */
    String value();

    /**
     * The fencing token of {@code resource} (FENCING.md, "Locks of several resources"): larger than the token of every
     * lease on that resource that came before this one, plain or of several resources. The resources of one lease
     * share one token, so it is the same for each of them.
     *
     * @throws IllegalArgumentException if {@code resource} is not one of {@link #resources()}
     * @throws RedlockException         if the Redlock was built with {@code fencing(false)}
     */
    long fencingToken(String resource);

    /** The {@link Ticker} reading at which the lease stops being valid. */
    long validUntil();

    /** Time left before the lease stops being valid; zero once expired or released. */
    Duration remainingValidity();

    /** True while the lease is neither released, nor lost, nor past its validity. */
    boolean isValid();

    /** Why the lease was lost, if it was; empty while it is held, after a release, or for a lease that merely expired unwatched. */
    Optional<LossReason> lossReason();

    /**
     * Extends every resource's lock to {@code ttl} from now: {@code true} only if a majority of nodes still held all
     * of them with our value and confirmed inside the new validity; an expired key is never re-created.
     */
    default boolean extend(Duration ttl) {
        return io.redlock.internal.locks.Blocking.await(extendAsync(ttl), "extend " + resources()).booleanValue();
    }

    /** Asynchronous {@link #extend(Duration)}. */
    CompletionStage<Boolean> extendAsync(Duration ttl);

    /**
     * Releases every resource's lock on every node, where it still holds our value; returns once a majority answered,
     * as {@link Lease#release()} does. Idempotent.
     */
    default void release() {
        io.redlock.internal.locks.Blocking.await(releaseAsync(), "release " + resources());
    }

    /** Asynchronous {@link #release()}; every call returns the same stage. */
    CompletionStage<Void> releaseAsync();

    /** Same as {@link #release()}. */
    @Override
    default void close() {
        release();
    }
}
