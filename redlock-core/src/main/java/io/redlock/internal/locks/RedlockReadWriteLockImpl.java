package io.redlock.internal.locks;

import io.redlock.Lease;
import io.redlock.LockTarget;
import io.redlock.RedlockLock;
import io.redlock.RedlockReadWriteLock;
import io.redlock.internal.acquire.Acquisitions;
import io.redlock.internal.parts.ConfigCheck;
import io.redlock.internal.parts.Parts;
import java.time.Duration;
import java.util.Optional;

/**
 * {@link RedlockReadWriteLock}: the write lock is the resource's exclusive lock; the read lock a
 * {@link RedlockReadLockImpl} over the reader's claim. Each refuses a thread that holds the other.
 */
public final class RedlockReadWriteLockImpl implements RedlockReadWriteLock {

    private final Acquisitions acquisitions;
    private final String resource;
    private final RedlockLockImpl write;
    private final RedlockReadLockImpl read;

    public RedlockReadWriteLockImpl(Parts parts, Acquisitions acquisitions, String resource, LockPlan options) {
        ConfigCheck.resource(resource);
        this.acquisitions = acquisitions;
        this.resource = resource;
        this.read = new RedlockReadLockImpl(resource, () -> new RedlockLockImpl(parts, resource, options,
                (ttl, maxWait) -> acquisitions.acquire(LockTarget.read(resource), ttl, maxWait), this::mayRead));
        this.write = new RedlockLockImpl(parts, resource, options,
                (ttl, maxWait) -> acquisitions.acquire(LockTarget.write(resource), ttl, maxWait), this::mayWrite);
    }

    private void mayWrite(Thread thread) {
        if (read.heldBy(thread)) {
            throw new IllegalMonitorStateException("the read lock of '" + resource + "' cannot be upgraded: thread "
                    + thread.getName() + " holds it; two readers upgrading would each wait for the other, so release"
                    + " the read lock before taking the write lock");
        }
    }

    private void mayRead(Thread thread) {
        if (write.isOwner(thread)) {
            throw new IllegalMonitorStateException("thread " + thread.getName() + " holds the write lock of '"
                    + resource + "': a read lock would wait for it; release the write lock first");
        }
    }

    @Override
    public String resource() {
        return resource;
    }

    @Override
    public RedlockLock readLock() {
        return read;
    }

    @Override
    public RedlockLock writeLock() {
        return write;
    }

    @Override
    public Optional<Lease> tryAcquireRead(Duration ttl) {
        return acquireRead(ttl, Duration.ZERO);
    }

    @Override
    public Optional<Lease> acquireRead(Duration ttl, Duration maxWait) {
        return lease(LockTarget.read(resource), ttl, maxWait);
    }

    @Override
    public Optional<Lease> tryAcquireWrite(Duration ttl) {
        return acquireWrite(ttl, Duration.ZERO);
    }

    @Override
    public Optional<Lease> acquireWrite(Duration ttl, Duration maxWait) {
        return lease(LockTarget.write(resource), ttl, maxWait);
    }

    /** A lease-level acquisition of {@code target}, the read or the write lock, waited for. */
    private Optional<Lease> lease(LockTarget target, Duration ttl, Duration maxWait) {
        return Blocking.await(acquisitions.acquire(target, ttl, maxWait), target.toString());
    }

    @Override
    public String toString() {
        return "RedlockReadWriteLock[" + resource + "]";
    }
}
