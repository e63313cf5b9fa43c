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

/** {@link RedlockLock}: one owner thread and hold count kept locally, one lease underneath. */
public final class RedlockLockImpl implements RedlockLock {

    /** Waiting "forever" is done in chunks of this, so the loop stays bounded per call. */
    private static final Duration WAIT_CHUNK = Duration.ofMinutes(1);

    private final Engine engine;
    private final String resource;
    private final LockOptions options;

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
            owner = me;
            holds = 1;
            lease = granted;
            watchdog = dog;
        }
        return true;
    }

    @Override
    public void unlock() {
        RedlockLease held;
        Watchdog dog;
        synchronized (this) {
            if (owner != Thread.currentThread()) {
                throw new IllegalMonitorStateException("the lock on '" + resource + "' is held by "
                        + (owner == null ? "nobody" : "thread " + owner.getName()) + ", not by "
                        + Thread.currentThread().getName());
            }
            if (--holds > 0) {
                return;
            }
            held = lease;
            dog = watchdog;
            owner = null;
            lease = null;
            watchdog = null;
        }
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
        return "RedlockLock[" + resource + ", " + (owner == null ? "free" : "held by " + owner.getName() + " x"
                + holds) + "]";
    }
}
