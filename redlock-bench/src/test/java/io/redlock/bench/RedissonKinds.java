package io.redlock.bench;

import java.util.concurrent.TimeUnit;
import org.redisson.api.RLock;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RSemaphore;
import org.redisson.api.RedissonClient;

/**
 * Redisson's single-master equivalents, through its blocking API on one node: {@code RLock},
 * {@code getMultiLock(RLock...)} (a {@code RedissonMultiLock}, taking its locks one by one in the order given),
 * {@code RReadWriteLock}, {@code RPermitExpirableSemaphore} (permits that expire, like redlock-java's) and
 * {@code RSemaphore} (permits that do not: a holder that dies keeps its permit). Every lock is taken with
 * {@code tryLock(maxWait, ttl)} or {@code tryAcquire(maxWait, ttl)}, so no watchdog runs, and released by the thread
 * that took it (Redisson's locks belong to a thread). One client serves every thread; each window's semaphore gets its
 * permits with {@code trySetPermits} before its threads start.
 */
final class RedissonKinds {

    /** Which of Redisson's semaphores. */
    enum Semaphore { EXPIRABLE, PLAIN }

    private RedissonKinds() {
    }

    /** The lock of {@code window}'s kind; {@code semaphore} picks Redisson's semaphore for {@link Kind#PERMITS}. */
    static KindLock open(RedissonClient redisson, KindWindow window, Semaphore semaphore) {
        return switch (window.kind()) {
            case LOCK -> (slot, ttl, maxWait) -> tryLock(redisson.getLock(window.own(slot)), ttl.toMillis(),
                    maxWait.toMillis());
            case SEVERAL -> (slot, ttl, maxWait) -> tryLock(redisson.getMultiLock(window.severalResources(slot)
                    .stream().map(redisson::getLock).toArray(RLock[]::new)), ttl.toMillis(), maxWait.toMillis());
            case READ_WRITE -> {
                RReadWriteLock lock = redisson.getReadWriteLock(window.shared());
                yield (slot, ttl, maxWait) -> tryLock(window.writer(slot) ? lock.writeLock() : lock.readLock(),
                        ttl.toMillis(), maxWait.toMillis());
            }
            case PERMITS -> semaphore == Semaphore.EXPIRABLE ? expirable(redisson, window) : plain(redisson, window);
        };
    }

    private static KindLock expirable(RedissonClient redisson, KindWindow window) {
        RPermitExpirableSemaphore permits = redisson.getPermitExpirableSemaphore(window.shared());
        if (!permits.trySetPermits(window.permits())) {
            throw new IllegalStateException("Redisson: " + window.shared() + " had its permits already");
        }
        return (slot, ttl, maxWait) -> {
            String permit = permits.tryAcquire(maxWait.toMillis(), ttl.toMillis(), TimeUnit.MILLISECONDS);
            return permit == null ? null : () -> permits.release(permit);
        };
    }

    private static KindLock plain(RedissonClient redisson, KindWindow window) {
        RSemaphore permits = redisson.getSemaphore(window.shared());
        if (!permits.trySetPermits(window.permits())) {
            throw new IllegalStateException("Redisson: " + window.shared() + " had its permits already");
        }
        return (slot, ttl, maxWait) -> permits.tryAcquire(maxWait.toMillis(), TimeUnit.MILLISECONDS)
                ? permits::release : null;
    }

    private static KindLock.Held tryLock(RLock lock, long ttlMillis, long maxWaitMillis) throws InterruptedException {
        return lock.tryLock(maxWaitMillis, ttlMillis, TimeUnit.MILLISECONDS) ? lock::unlock : null;
    }
}
