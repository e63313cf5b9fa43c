package io.redlock.internal.locks;

import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.LossReason;
import io.redlock.RedlockLock;
import io.redlock.internal.acquire.Acquiring;
import io.redlock.internal.acquire.Acquisitions;
import io.redlock.internal.lease.LossNotice;
import io.redlock.internal.lease.RedlockLease;
import io.redlock.internal.lease.Watchdog;
import io.redlock.internal.parts.ConfigCheck;
import io.redlock.internal.parts.Parts;
import io.redlock.internal.time.Deadline;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@link RedlockLock}: one owner thread and hold count kept locally, one lease underneath. Threads of this JVM take
 * the lock one at a time: a thread becomes the local owner before it asks the nodes, and stays the owner — also
 * after a loss — until its last unlock, which reports the loss. A re-entrant call counts while the lease is valid;
 * once it was lost or ran out, the critical section is broken: every nested call throws {@link LeaseLostException}
 * and {@link #currentLease()} stays the lost lease until the owner has unwound its holds.
 */
public final class RedlockLockImpl implements RedlockLock {

    /** The wait of {@code lock()}: one acquisition that ends only when it succeeds (or the Redlock closes). */
    private static final Duration FOREVER = ChronoUnit.FOREVER.getDuration();

    private final Parts parts;
    private final String resource;
    private final LockPlan options;
    /** How the lock is asked of the nodes: the resource's lock, or a reader's share of it. */
    private final Claim claim;
    /** Checks a thread may acquire at all (a reader may not take the write lock); throws if not. */
    private final Consumer<Thread> admit;

    /** The thread that holds the lock, or is acquiring it (then {@code holds} is 0); null when free locally. */
    private Thread owner;
    private int holds;
    private RedlockLease lease;
    private Watchdog watchdog;

    /** One acquisition of the lock on the nodes, for a TTL, waiting at most {@code maxWait}. */
    @FunctionalInterface
    interface Claim {
        Acquiring acquire(Duration ttl, Duration maxWait);
    }

    public RedlockLockImpl(Parts parts, Acquisitions acquisitions, String resource, LockPlan options) {
        this(parts, resource, options, (ttl, maxWait) -> acquisitions.acquire(resource, ttl, maxWait), thread -> { });
    }

    public RedlockLockImpl(Parts parts, String resource, LockPlan options, Claim claim, Consumer<Thread> admit) {
        ConfigCheck.resource(resource);
        this.parts = parts;
        this.resource = resource;
        this.options = options;
        this.claim = claim;
        this.admit = admit;
    }

    @Override
    public String resource() {
        return resource;
    }

    @Override
    public void lock() {
        acquireUninterruptibly(FOREVER, options.ttl(), true);
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquire(FOREVER, options.ttl(), true, true);
    }

    /** Takes the lock if it is free now, whether or not the thread is interrupted (as {@code Lock.tryLock()}). */
    @Override
    public boolean tryLock() {
        return acquireUninterruptibly(Duration.ZERO, options.ttl(), true);
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return acquire(Duration.ofNanos(Math.max(0, unit.toNanos(time))), options.ttl(), true, true);
    }

    @Override
    public void lock(Duration leaseTime) {
        acquireUninterruptibly(FOREVER, leaseTime, false);
    }

    @Override
    public boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException {
        return acquire(waitTime, leaseTime, false, true);
    }

    /** Waits up to {@code maxWait} through interrupts; the interrupt flag is set again afterwards. */
    private boolean acquireUninterruptibly(Duration maxWait, Duration ttl, boolean keepAlive) {
        try {
            return acquire(maxWait, ttl, keepAlive, false);
        } catch (InterruptedException cannotHappen) {
            throw new IllegalStateException(cannotHappen);
        }
    }

    /**
     * Takes the lock within {@code maxWait}: counts a re-entry while the lease is valid (throws
     * {@link LeaseLostException} once it is not), else waits to be the local owner, then asks the nodes. An
     * {@code interruptible} call made with the interrupt flag set throws {@link InterruptedException} at once, also on
     * re-entry (as {@link java.util.concurrent.locks.ReentrantLock}), unless the section is broken: the loss first. It
     * gives up on an interrupt while waiting; an uninterruptible one sets the interrupt flag again when it returns.
     */
    private boolean acquire(Duration maxWait, Duration ttl, boolean keepAlive, boolean interruptible)
            throws InterruptedException {
        Thread me = Thread.currentThread();
        if (interruptible && me.isInterrupted()) {
            throwIfBroken(me); // a broken section reports its loss first (a watchdog's loss interrupts the holder)
            Thread.interrupted();
            throw new InterruptedException();
        }
        if (reenter(me)) {
            return true;
        }
        admit.accept(me);
        LockWait wait = new LockWait(Deadline.after(parts.ticker(), maxWait), interruptible);
        try {
            if (!isOwner(me) && !claimLocally(me, wait)) {
                return false;
            }
            boolean acquired = false;
            try {
                Optional<RedlockLease> granted = acquireFromNodes(wait, ttl);
                if (granted.isPresent()) {
                    hold(me, granted.get(), ttl, keepAlive);
                    acquired = true;
                }
                return acquired;
            } finally {
                if (!acquired) {
                    freeLocally();
                }
            }
        } finally {
            if (wait.wasInterrupted()) {
                me.interrupt();
            }
        }
    }

    /**
     * A re-entrant call by the holder: true (counted) while its lease is valid; false if {@code me} holds nothing.
     *
     * @throws LeaseLostException if {@code me} holds a lease that was lost or ran out: its critical section is broken
     *     until it has unlocked every hold (the last unlock releases what is left and reports the loss)
     */
    private boolean reenter(Thread me) {
        synchronized (this) {
            throwIfBroken(me);
            if (owner != me || holds == 0) {
                return false;
            }
            holds++;
            return true;
        }
    }

    /** Throws {@link LeaseLostException} if {@code me} holds a lease that was lost or ran out. */
    private synchronized void throwIfBroken(Thread me) {
        if (owner == me && holds > 0 && !lease.isValid()) {
            throw new LeaseLostException(resource, lease.lossReason().orElse(LossReason.EXPIRED), null);
        }
    }

    synchronized boolean isOwner(Thread me) {
        return owner == me;
    }

    /**
     * Becomes the local owner, waiting (until the deadline) while another thread of this JVM holds or acquires the
     * lock. False if the deadline came first.
     */
    private synchronized boolean claimLocally(Thread me, LockWait wait) throws InterruptedException {
        while (owner != null) { // bounded: each pass waits out part of the wait time, or an unlock woke us
            long left = wait.deadline.nanosLeft();
            if (left <= 0) {
                return false;
            }
            try {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            } catch (InterruptedException e) {
                wait.interrupted(e);
            }
        }
        owner = me;
        holds = 0;
        return true;
    }

    private synchronized void freeLocally() {
        owner = null;
        holds = 0;
        lease = null;
        watchdog = null;
        notifyAll();
    }

    /** One acquisition on the nodes with whatever is left of the wait (one place in the queue); empty if it ran out. */
    private Optional<RedlockLease> acquireFromNodes(LockWait wait, Duration ttl) throws InterruptedException {
        Duration left = wait.deadline.bounded() ? Duration.ofNanos(wait.deadline.nanosLeft()) : FOREVER;
        return wait.await(claim.acquire(ttl, left), resource);
    }

    /** The caller now holds {@code granted}: watched, and kept alive unless it is a fixed lease. */
    private void hold(Thread me, RedlockLease granted, Duration ttl, boolean keepAlive) {
        Watchdog dog = granted.watch();
        if (keepAlive) {
            dog.autoExtend(ttl, options.extendWhenRemaining(), options.maxHold());
            dog.notice().interruptOnLoss(me); // a fixed lease simply expires: reported by unlock(), no interrupt
        }
        synchronized (this) {
            holds = 1;
            lease = granted;
            watchdog = dog;
        }
    }

    @Override
    public void unlock() {
        RedlockLease held;
        Watchdog dog;
        Thread me = Thread.currentThread();
        synchronized (this) {
            if (owner != me || holds == 0) {
                throw new IllegalMonitorStateException("the lock on '" + resource + "' is held by "
                        + (owner == null || holds == 0 ? "nobody" : "thread " + owner.getName()) + ", not by "
                        + me.getName());
            }
            if (--holds > 0) {
                return;
            }
            held = lease;
            dog = watchdog;
        }
        try {
            LossNotice notice = dog.notice();
            boolean interruptedByUs = notice.detachWorker();
            notice.awaitListenersTold();
            if (interruptedByUs || notice.detachWorker()) {
                Thread.interrupted(); // our interrupt, to stop the critical section; reported below instead
            }
            Optional<LossReason> lost = LockRunner.settleBeforeRelease(parts.events(), held);
            LockRunner.end(parts.ticker(), held, options).toCompletableFuture().join();
            if (lost.isPresent()) {
                throw new LeaseLostException(resource, lost.get(), null);
            }
        } finally {
            freeLocally(); // only now may another thread of this JVM take the lock
        }
    }

    @Override
    public synchronized boolean isHeldByCurrentThread() {
        return heldByMe() && lease.isValid();
    }

    @Override
    public synchronized boolean isLocked() {
        return owner != null;
    }

    @Override
    public synchronized Duration remainingValidity() {
        return heldByMe() ? lease.remainingValidity() : Duration.ZERO;
    }

    @Override
    public synchronized Optional<Lease> currentLease() {
        return heldByMe() ? Optional.of(lease) : Optional.empty();
    }

    private boolean heldByMe() {
        return owner == Thread.currentThread() && holds > 0;
    }

    @Override
    public synchronized String toString() {
        return "RedlockLock[" + resource + ", " + (owner == null ? "free"
                : holds == 0 ? "being acquired by " + owner.getName() : "held by " + owner.getName() + " x" + holds)
                + "]";
    }

}
