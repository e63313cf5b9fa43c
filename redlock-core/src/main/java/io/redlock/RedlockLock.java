package io.redlock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A {@link Lock} on one resource, held through Redlock leases: {@link #lock()}, {@link #lockInterruptibly()},
 * {@link #tryLock()} and {@link #tryLock(long, TimeUnit)} keep the lease alive with a watchdog for as long as the
 * owning thread holds the lock (SPEC J2); {@link #lock(Duration)} and {@link #tryLock(Duration, Duration)} take a fixed
 * lease that simply expires (SPEC J1, the Redisson-style calls).
 *
 * <p>Re-entrant for the owning thread while its lease is valid: a hold count is kept locally, with one lease
 * underneath. Once the lease was lost or ran out, the thread's critical section is broken until it has unwound it:
 * every nested {@code lock}, {@code lockInterruptibly} and {@code tryLock} call throws {@link LeaseLostException},
 * {@link #currentLease()} stays the lost lease, and the last {@link #unlock()} reports the loss; only then does locking
 * acquire afresh. {@link #lock()} waits in one acquisition with one place
 * in the fair queue; the untimed {@link #tryLock()} takes a free lock even while others wait. {@link #unlock()} from
 * another thread throws {@link IllegalMonitorStateException}. If the lease is lost while held, the owning thread is
 * interrupted, listeners are told, and {@link #unlock()} throws {@link LeaseLostException} after releasing, so the
 * caller learns the critical section was not protected.
 *
 * <p>Obtained from {@link Redlock#lock(String)}; share one instance among the threads of a JVM that lock the
 * resource. Waiting uses the Redlock's retry policy and wake-on-release.
 */
public interface RedlockLock extends Lock {

    /** The resource this lock guards. */
    String resource();

    /** Acquires with a fixed lease of {@code leaseTime} and no watchdog, waiting as long as it takes. */
    void lock(Duration leaseTime);

    /** Tries for up to {@code waitTime} to acquire with a fixed lease of {@code leaseTime} and no watchdog. */
    boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException;

    /** True if the current thread holds the lock and its lease is valid. */
    boolean isHeldByCurrentThread();

    /**
     * True if a thread of this JVM holds the lock or is acquiring it (as {@code ReentrantLock.isLocked()}); says
     * nothing of other JVMs.
     */
    boolean isLocked();

    /** The remaining validity of the current thread's lease, or zero if it does not hold the lock. */
    Duration remainingValidity();

    /**
     * The current thread's lease (with its fencing token), if it holds the lock; empty for any other thread, so a
     * thread cannot write with a token it does not hold.
     */
    Optional<Lease> currentLease();

    /** Not supported: a distributed lock has no way to signal waiters on other machines. */
    @Override
    default Condition newCondition() {
        throw new UnsupportedOperationException("a Redlock lock has no conditions: waiters may be on other machines,"
                + " and Redis offers no atomic release-and-wait across the nodes");
    }
}
