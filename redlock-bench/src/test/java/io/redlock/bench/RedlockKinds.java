package io.redlock.bench;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.RedlockReadWriteLock;
import io.redlock.RedlockSemaphore;
import java.util.Optional;

/**
 * redlock-java's kinds of lock, through its blocking API as an application calls it: {@code acquire},
 * {@code acquireAll}, {@code readWriteLock(r).acquireRead/acquireWrite}, {@code semaphore(r, permits).acquire}, each
 * lease released with {@code release()}. One {@link Redlock} (fenced, the library's defaults but the per-node timeout
 * of {@link RedlockContestant}) serves every thread.
 */
final class RedlockKinds {

    private RedlockKinds() {
    }

    /** The lock of {@code window}'s kind. */
    static KindLock open(Redlock redlock, KindWindow window) {
        return switch (window.kind()) {
            case LOCK -> (slot, ttl, maxWait) -> held(redlock.acquire(window.own(slot), ttl, maxWait));
            case SEVERAL -> (slot, ttl, maxWait) -> redlock.acquireAll(window.severalResources(slot), ttl, maxWait)
                    .<KindLock.Held>map(lease -> lease::release).orElse(null);
            case READ_WRITE -> {
                RedlockReadWriteLock lock = redlock.readWriteLock(window.shared());
                yield (slot, ttl, maxWait) -> held(window.writer(slot)
                        ? lock.acquireWrite(ttl, maxWait)
                        : lock.acquireRead(ttl, maxWait));
            }
            case PERMITS -> {
                RedlockSemaphore semaphore = redlock.semaphore(window.shared(), window.permits());
                yield (slot, ttl, maxWait) -> held(semaphore.acquire(ttl, maxWait));
            }
        };
    }

    private static KindLock.Held held(Optional<Lease> lease) {
        return lease.<KindLock.Held>map(held -> held::release).orElse(null);
    }
}
