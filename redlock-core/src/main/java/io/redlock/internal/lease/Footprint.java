package io.redlock.internal.lease;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where a lease's value may be on the nodes, as a release needs to know it: each node's acquire reply (a delete goes to
 * a node only after that reply), kept as a bit per node once every one is in ({@link SettledReplies}), and when the
 * keys would have expired on every node by themselves. Thread-safe.
 */
final class Footprint {

    private volatile List<? extends CompletableFuture<?>> replies;
    /** When the key would expire on a node by itself: the TTL of the latest write sent, from when it was sent. */
    private volatile long expiry;

    /**
     * @param replies the acquisition's per-node replies
     * @param expiry  the ticker reading at which the keys would expire by themselves
     */
    Footprint(List<? extends CompletableFuture<?>> replies, long expiry) {
        this.replies = replies;
        this.expiry = expiry;
    }

    /** The acquisition's per-node replies; a release to a node is sent only after that node's reply. */
    List<? extends CompletableFuture<?>> replies() {
        return replies;
    }

    /** Once every acquire reply is in, keeps only what a release needs of them ({@link SettledReplies}). */
    void settleWhenIn() {
        List<? extends CompletableFuture<?>> all = replies;
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new))
                .whenComplete((done, failure) -> replies = SettledReplies.of(all));
    }

    /** The ticker reading at which the lock key would have expired on every node by itself. */
    long expiry() {
        return expiry;
    }

    /** A write that sets the key's TTL to last until {@code expiresAt} is being sent. */
    synchronized void writing(long expiresAt) {
        if (expiresAt - expiry > 0) {
            expiry = expiresAt;
        }
    }
}
