package io.redlock.internal;

import io.redlock.RedlockConfig;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The waiter queues of fair acquisition (see {@link Scripts#ACQUIRE_FENCED}): how long a place lasts without a new
 * attempt, and taking a waiter out of a queue. Leaving is sent without waiting: the command is ordered before any
 * later one on the same connection, closing the engine lets it finish ({@link PendingWork}), and a place left behind
 * lapses by itself.
 */
final class QueueUpkeep {

    private final NodeSet nodes;
    private final PendingWork pending;
    /** {@link #placeLifetimeMillis}, as the acquire script's argument. */
    private final String placeLifetimeArg;

    QueueUpkeep(NodeSet nodes, PendingWork pending, RedlockConfig config) {
        this.nodes = nodes;
        this.pending = pending;
        this.placeLifetimeArg = Long.toString(placeLifetimeMillis(config));
    }

    /** How long a waiter's place lasts without a new attempt: two of its longest pauses between rounds, plus 1 ms. */
    static long placeLifetimeMillis(RedlockConfig config) {
        return 2 * (config.retry().maxDelay().toMillis() + config.nodeTimeout().toMillis()) + 1;
    }

    /** The place lifetime, in milliseconds, as the acquire script's argument. */
    String placeLifetimeArg() {
        return placeLifetimeArg;
    }

    /** Takes a waiter out of a resource's queue on every node. */
    void leave(Keys keys, String waiterId) {
        String[] queueKeys = keys.queue();
        nodes.send((i, node) -> leaveOn(node, queueKeys, waiterId));
    }

    /** Takes a waiter out of a resource's queue on one node. */
    void leave(NodeClient node, Keys keys, String waiterId) {
        leaveOn(node, keys.queue(), waiterId);
    }

    private CompletionStage<Long> leaveOn(NodeClient node, String[] queueKeys, String waiterId) {
        CompletableFuture<Long> left = node.eval(Scripts.LEAVE_QUEUE, queueKeys, waiterId)
                .toCompletableFuture();
        pending.track(left);
        return left;
    }
}
