package io.redlock.bench;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/** A contended client with its own Redisson client on one node: {@code tryLock(maxWait, ttl)}, {@code unlock()}. */
final class RedissonLockClient implements LockClient {

    private final RedissonClient redisson;
    private RLock lock;

    RedissonLockClient(String uri) {
        this.redisson = RedissonClients.create(uri);
    }

    @Override
    public boolean acquire(String resource, Duration ttl, Duration maxWait) {
        lock = redisson.getLock(resource);
        try {
            return lock.tryLock(maxWait.toMillis(), ttl.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + resource, e);
        }
    }

    @Override
    public void release() {
        lock.unlock();
    }

    @Override
    public void close() {
        RedissonClients.shutdown(redisson);
    }
}
