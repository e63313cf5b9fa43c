package io.redlock.internal.locks;

import io.redlock.Lease;
import io.redlock.RedlockLock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The read lock of a {@code RedlockReadWriteLock}: threads of this JVM hold it at once, each with a lease of its own
 * (a reader on the nodes), re-entrant per thread. Each thread's hold is a {@link RedlockLockImpl} over the reader's
 * claim, made when the thread first asks and forgotten when it no longer holds or owes anything.
 */
final class RedlockReadLockImpl implements RedlockLock {

    private final String resource;
    private final Supplier<RedlockLockImpl> newHold;
    private final Map<Thread, RedlockLockImpl> holds = new ConcurrentHashMap<>();

    RedlockReadLockImpl(String resource, Supplier<RedlockLockImpl> newHold) {
        this.resource = resource;
        this.newHold = newHold;
    }

    /** Whether {@code thread} holds the read lock, or is acquiring it. */
    boolean heldBy(Thread thread) {
        RedlockLockImpl hold = holds.get(thread);
        return hold != null && hold.isOwner(thread);
    }

    /** A call on the current thread's hold, which may wait interruptibly. */
    @FunctionalInterface
    private interface OnHold<T> {
        T call(RedlockLockImpl hold) throws InterruptedException;
    }

    /** Runs {@code call} on the current thread's hold (made if it has none), then forgets it if it is idle. */
    private <T> T mine(OnHold<T> call) throws InterruptedException {
        Thread me = Thread.currentThread();
        try {
            return call.call(holds.computeIfAbsent(me, thread -> newHold.get()));
        } finally {
            holds.computeIfPresent(me, (thread, hold) -> hold.isLocked() ? hold : null);
        }
    }

    /** {@link #mine} for a call that cannot be interrupted. */
    private <T> T mineUninterruptibly(OnHold<T> call) {
        try {
            return mine(call);
        } catch (InterruptedException cannotHappen) {
            throw new IllegalStateException(cannotHappen);
        }
    }

    @Override
    public String resource() {
        return resource;
    }

    @Override
    public void lock() {
        mineUninterruptibly(hold -> {
            hold.lock();
            return null;
        });
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        mine(hold -> {
            hold.lockInterruptibly();
            return null;
        });
    }

    @Override
    public boolean tryLock() {
        return mineUninterruptibly(RedlockLockImpl::tryLock);
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return mine(hold -> hold.tryLock(time, unit));
    }

    @Override
    public void lock(Duration leaseTime) {
        mineUninterruptibly(hold -> {
            hold.lock(leaseTime);
            return null;
        });
    }

    @Override
    public boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException {
        return mine(hold -> hold.tryLock(waitTime, leaseTime));
    }

    @Override
    public void unlock() {
        mineUninterruptibly(hold -> {
            hold.unlock();
            return null;
        });
    }

    @Override
    public boolean isHeldByCurrentThread() {
        RedlockLockImpl hold = holds.get(Thread.currentThread());
        return hold != null && hold.isHeldByCurrentThread();
    }

    @Override
    public Duration remainingValidity() {
        RedlockLockImpl hold = holds.get(Thread.currentThread());
        return hold == null ? Duration.ZERO : hold.remainingValidity();
    }

    @Override
    public boolean isLocked() {
        return !holds.isEmpty();
    }

    /** The current thread's read lease, if it holds the read lock. */
    @Override
    public Optional<Lease> currentLease() {
        RedlockLockImpl hold = holds.get(Thread.currentThread());
        return hold == null ? Optional.empty() : hold.currentLease();
    }

    @Override
    public String toString() {
        return "RedlockReadLock[" + resource + ", held by " + holds.size() + " thread(s) of this JVM]";
    }
}
