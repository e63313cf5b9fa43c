package io.redlock.internal.lease;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** What a {@link RedlockLease} asks of the client that granted it. */
interface LeaseOps {

    CompletableFuture<Boolean> extend(RedlockLease lease, Duration ttl);

    CompletableFuture<Void> release(RedlockLease lease);

    /**
     * Re-expires the lease's keys to {@code keep} on every node that holds them, no majority needed (a minimum hold at
     * the end of the lease); done once every node answered or timed out.
     */
    CompletableFuture<Void> reExpire(RedlockLease lease, Duration keep);

    /**
     * The lease's watchdog, made (noticing expiry only) if it has none, so someone notices when the lease expires
     * unreleased; null once the lease is released.
     */
    Watchdog watch(RedlockLease lease);
}
