package io.redlock.bench;

import io.redlock.Lease;
import io.redlock.Redlock;
import java.time.Duration;
import java.util.List;

/** A contended client with its own {@link Redlock} (defaults: fenced, wake on release). */
final class RedlockLockClient implements LockClient {

    private final Redlock redlock;
    private Lease lease;

    RedlockLockClient(List<String> uris) {
        this.redlock = Redlock.builder().nodes(uris).build();
    }

    @Override
    public boolean acquire(String resource, Duration ttl, Duration maxWait) {
        lease = redlock.acquire(resource, ttl, maxWait).orElse(null);
        return lease != null;
    }

    @Override
    public void release() {
        lease.release();
    }

    @Override
    public void close() {
        redlock.close();
    }
}
