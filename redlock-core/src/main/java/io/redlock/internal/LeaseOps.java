package io.redlock.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/** What a {@link RedlockLease} asks of the engine that issued it. */
interface LeaseOps {

    CompletableFuture<Boolean> extend(RedlockLease lease, Duration ttl);

    CompletableFuture<Void> release(RedlockLease lease);

    /** The shortest time {@link RedlockLease#releaseAfterAsync} keeps a lock for: twice the per-node timeout. */
    Duration shortestKeep();

    /** Makes sure someone notices when the lease expires unreleased (a listener was added). */
    void watch(RedlockLease lease);
}
