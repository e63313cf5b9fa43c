package io.redlock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A semaphore over the Redlock quorum (docs/FENCING.md, "Semaphores"): at most {@link #permits()} leases of its
 * resource at once, each a permit — it expires if its holder dies, is extended and released as any {@link Lease},
 * and carries a fencing token (the tokens of one semaphore are unique and grow).
 *
 * <p><b>How.</b> The permits are slots, each a mutex over the quorum; a permit is one slot held on a majority of nodes,
 * so no two leases hold one slot and there are never more leases than slots, whatever nodes fail or restart within
 * the assumptions of a lock. (Counting permits on each node would not be safe: three leases can each hold a
 * different majority of three nodes while no node counts more than two.) An acquisition round asks for one slot; a
 * refused round asks at once for a slot the nodes name as free, so one try sweeps the free slots (at most
 * {@code permits} rounds) before it waits. Waiters do not queue: a freed permit goes to whoever asks first.
 *
 * <p><b>One resource, one kind, one number.</b> While a permit is held, the resource's lock key holds the semaphore's
 * mark, {@code redlock:permits:<n>}: a lock of the resource (ours or another Redlock client's {@code SET NX}) is
 * refused, and so are a reader and a semaphore asked for with other permits — with
 * {@link LockKindMismatchException}, nothing written.
 *
 * <p>Obtained from {@link Redlock#semaphore(String, int)}; share one instance among the threads of a JVM. To run work
 * under a kept-alive permit, use {@code redlock.withLock(LockTarget.permit(resource, permits), options, work)}.
 */
public interface RedlockSemaphore {

    /** The resource this semaphore guards. */
    String resource();

    /** How many leases may hold a permit at once. */
    int permits();

    /**
     * One try for a permit of {@code ttl} (no watchdog): the round, and the rounds that sweep the slots a majority has
     * free; empty if no permit is free.
     *
     * @throws LockKindMismatchException  if the resource is held as another kind of lock or with other permits
     * @throws RedlockConfigException     if the TTL is invalid (nothing is written to Redis)
     * @throws QuorumUnreachableException if a majority of nodes fails with errors retrying cannot fix
     */
    Optional<Lease> tryAcquire(Duration ttl);

    /** Tries for a permit of {@code ttl}, with random delays between tries, until one succeeds or {@code maxWait} is spent. */
    Optional<Lease> acquire(Duration ttl, Duration maxWait);

    /** Asynchronous {@link #tryAcquire(Duration)}. */
    CompletionStage<Optional<Lease>> tryAcquireAsync(Duration ttl);

    /** Asynchronous {@link #acquire(Duration, Duration)}. */
    CompletionStage<Optional<Lease>> acquireAsync(Duration ttl, Duration maxWait);

    /**
     * How many permits a try could take now: the slots free on a majority of nodes, read from every node (a snapshot,
     * not a reservation). 0 if fewer than a majority of nodes answer, as no permit can be taken then.
     */
    int availablePermits();
}
