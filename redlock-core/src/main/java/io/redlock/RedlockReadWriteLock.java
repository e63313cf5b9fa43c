package io.redlock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * A read-write lock on one resource over the Redlock quorum (docs/FENCING.md, "Read-write locks"): many readers at
 * once, or one writer. The write lock is the resource's plain lock, so a lock of the resource — ours or another Redlock
 * client's {@code SET NX} — excludes readers and writers alike; while read-locked, the resource's lock key holds the
 * readers' mark, so such a lock waits too.
 *
 * <p><b>Policy: writers first.</b> A writer that waits is queued on the nodes (the fair queue of the resource), and
 * while a live writer waits no new reader is let in: the readers inside finish, then the writer takes the lock. A
 * stream of readers cannot starve a writer; a stream of writers can delay readers.
 *
 * <p><b>Tokens.</b> Readers and writers draw their fencing tokens from the resource's one counter: a writer's token is
 * above the token of every lease of the resource granted before it, readers' included, and a reader's above every
 * earlier writer's. Readers that hold the lock together may share a token.
 *
 * <p><b>No upgrade, no downgrade.</b> A thread holding the read lock may not take the write lock (two readers doing
 * so would each wait for the other to leave, forever), nor a thread holding the write lock the read lock (it would
 * wait for itself): both are refused with {@link IllegalMonitorStateException}, and nothing is sent to Redis. Release
 * one, then take the other. The lease-level methods cannot tell who holds a lease: a caller that asks for the write
 * lease while holding a read lease waits until its wait runs out.
 *
 * <p>Obtained from {@link Redlock#readWriteLock(String)}; share one instance among the threads of a JVM.
 */
public interface RedlockReadWriteLock extends ReadWriteLock {

    /** The resource this lock guards. */
    String resource();

    /**
     * The read lock: threads of this JVM hold it together, each with a lease of its own, kept alive by a watchdog as
     * {@link RedlockLock} says (loss interrupts the holder, {@code unlock()} reports it).
     */
    @Override
    RedlockLock readLock();

    /** The write lock: the resource's exclusive lock, as {@link Redlock#lock(String)} gives it. */
    @Override
    RedlockLock writeLock();

    /** One round for a read lease of {@code ttl} (no watchdog); empty if a writer holds or waits for it. */
    Optional<Lease> tryAcquireRead(Duration ttl);

    /** Rounds for a read lease of {@code ttl} until one succeeds or {@code maxWait} is spent. */
    Optional<Lease> acquireRead(Duration ttl, Duration maxWait);

    /** One round for the write lease of {@code ttl}: {@link Redlock#tryAcquire(String, Duration)} of the resource. */
    Optional<Lease> tryAcquireWrite(Duration ttl);

    /**
     * Rounds for the write lease of {@code ttl} until one succeeds or {@code maxWait} is spent, queued on the nodes:
     * {@link Redlock#acquire(String, Duration, Duration)} of the resource.
     */
    Optional<Lease> acquireWrite(Duration ttl, Duration maxWait);
}
