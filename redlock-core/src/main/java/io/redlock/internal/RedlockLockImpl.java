package io.redlock.internal;

import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.LockOptions;
import io.redlock.LossReason;
import io.redlock.RedlockInterruptedException;
import io.redlock.RedlockLock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * {@link RedlockLock}: one owner thread and hold count kept locally, one lease underneath. Threads of this JVM take
 * the lock one at a time: a thread becomes the local owner before it asks the nodes, and stays the owner — also
 * after a loss — until it unlocks, so its {@code unlock()} can report the loss.
 */
public final class RedlockLockImpl implements RedlockLock {

    /** Waiting "forever" is done in chunks of this, so the loop stays bounded per call. */
    private static final Duration WAIT_CHUNK = Duration.ofMinutes(1);

    private final Engine engine;
    private final String resource;
    private final LockOptions options;

    /** The thread that holds the lock, or is acquiring it (then {@code holds} is 0); null when free locally. */
    private Thread owner;
    private int holds;
    private RedlockLease lease;
    private Watchdog watchdog;

    public RedlockLockImpl(Engine engine, String resource, LockOptions options) {
        ConfigCheck.resource(resource);
        this.engine = engine;
        this.resource = resource;
        this.options = options;
    }

    @Override
    public String resource() {
        return resource;
    }

    @Override
    public void lock() {
        boolean interrupted = false;
        while (true) {
            try {
                lockInterruptibly();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // lock() is not interruptible: keep waiting, restore the flag afterwards
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        while (!acquire(WAIT_CHUNK, options.ttl(), true)) {
            // keep waiting
        }
    }

    @Override
    public boolean tryLock() {
        try {
            return acquire(Duration.ZERO, options.ttl(), true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return acquire(Duration.ofNanos(Math.max(0, unit.toNanos(time))), options.ttl(), true);
    }

    @Override
    public void lock(Duration leaseTime) {
        boolean interrupted = false;
        while (true) {
            try {
                if (acquire(WAIT_CHUNK, leaseTime, false)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean tryLock(Duration waitTime, Duration leaseTime) throws InterruptedException {
        return acquire(waitTime, leaseTime, false);
    }

    private boolean acquire(Duration maxWait, Duration ttl, boolean keepAlive) throws InterruptedException {
        Thread me = Thread.currentThread();
        synchronized (this) {
            if (owner == me) {
                holds++;
                return true;
            }
        }
        if (Thread.interrupted()) {
            throw new InterruptedException();
        }
        long startedAt = engine.ticker().read();
        long waitNanos = saturatedNanos(maxWait);
        if (!claimLocally(me, startedAt, waitNanos)) {
            return false;
        }
        boolean acquired = false;
        try {
            long left = Math.max(0, waitNanos - (engine.ticker().read() - startedAt));
            acquired = acquireFromNodes(me, Duration.ofNanos(left), ttl, keepAlive);
            return acquired;
        } finally {
            if (!acquired) {
                freeLocally();
            }
        }
    }

    /**
     * Becomes the local owner, waiting (up to the wait time) while another thread of this JVM holds or acquires the
     * lock. False if the wait ran out first.
     */
    private synchronized boolean claimLocally(Thread me, long startedAt, long waitNanos) throws InterruptedException {
        while (owner != null) { // bounded: each pass waits out part of the wait time, or an unlock woke us
            long left = waitNanos - (engine.ticker().read() - startedAt);
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
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

    private boolean acquireFromNodes(Thread me, Duration maxWait, Duration ttl, boolean keepAlive)
            throws InterruptedException {
        CompletableFuture<Optional<Lease>> attempt = engine.acquire(resource, ttl, maxWait);
        Optional<Lease> acquired;
        try {
            acquired = attempt.get();
        } catch (InterruptedException e) {
            attempt.cancel(false); // a lease obtained after this is released at once
            throw e;
        } catch (ExecutionException e) {
            throw Blocking.unwrap(e.getCause(), "lock " + resource);
        } catch (CancellationException e) {
            throw new RedlockInterruptedException("lock " + resource + " was cancelled", new InterruptedException());
        }
        if (acquired.isEmpty()) {
            return false;
        }
        RedlockLease granted = (RedlockLease) acquired.get();
        Watchdog dog = Watchdog.of(engine, granted);
        if (keepAlive) {
            dog.autoExtend(ttl, options.extendWhenRemaining(), options.maxHold());
            dog.interruptOnLoss(me); // a fixed lease simply expires: reported by unlock(), no interrupt
        }
        synchronized (this) {
            holds = 1;
            lease = granted;
            watchdog = dog;
        }
        return true;
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    @Override
    public void unlock() {
        RedlockLease held;
        Watchdog dog;
        synchronized (this) {
            if (owner != Thread.currentThread() || holds == 0) {
                throw new IllegalMonitorStateException("the lock on '" + resource + "' is held by "
                        + (owner == null || holds == 0 ? "nobody" : "thread " + owner.getName()) + ", not by "
                        + Thread.currentThread().getName());
            }
            if (--holds > 0) {
                return;
            }
            held = lease;
            dog = watchdog;
        }
        try {
            boolean interruptedByUs = dog.detachWorker();
            dog.awaitListenersTold();
            if (interruptedByUs || dog.detachWorker()) {
                Thread.interrupted(); // our interrupt, to stop the critical section; reported below instead
            }
            Optional<LossReason> lost = engine.settleBeforeRelease(held);
            held.releaseAsync().toCompletableFuture().join();
            if (lost.isPresent()) {
                throw new LeaseLostException(resource, lost.get(), null);
            }
        } finally {
            freeLocally(); // only now may another thread of this JVM take the lock
        }
    }

    @Override
    public synchronized boolean isHeldByCurrentThread() {
        return owner == Thread.currentThread() && lease != null && lease.isValid();
    }

    @Override
    public synchronized Duration remainingValidity() {
        return lease == null ? Duration.ZERO : lease.remainingValidity();
    }

    @Override
    public synchronized Optional<Lease> currentLease() {
        return Optional.ofNullable(lease);
    }

    @Override
    public synchronized String toString() {
        return "RedlockLock[" + resource + ", " + (owner == null ? "free"
                : holds == 0 ? "being acquired by " + owner.getName() : "held by " + owner.getName() + " x" + holds)
                + "]";
    }
}
