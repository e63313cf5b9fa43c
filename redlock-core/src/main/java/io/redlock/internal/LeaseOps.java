package io.redlock.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** What a {@link RedlockLease} asks of the engine that issued it. */
interface LeaseOps {

    CompletableFuture<Boolean> extend(RedlockLease lease, Duration ttl);

    CompletableFuture<Void> release(RedlockLease lease);

    /**
     * Re-expires the lease's keys to {@code keep} on every node that holds them, no majority needed (a minimum hold at
     * the end of the lease); done once every node answered or timed out.
     */
    CompletableFuture<Void> reExpire(RedlockLease lease, Duration keep);

    /** Makes sure someone notices when the lease expires unreleased (a listener was added). */
    void watch(RedlockLease lease);
}
