package io.redlock.internal.release;

import io.redlock.internal.node.NodeClient;
import io.redlock.internal.node.NodeSet;
import io.redlock.internal.protocol.Keys;
import io.redlock.internal.protocol.ScriptSettings;
import io.redlock.internal.protocol.Scripts;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The waiter queues of fair acquisition (see {@link Scripts#ACQUIRE_FENCED}; how long a place lasts without a new
 * attempt is {@link ScriptSettings#placeLifetimeMillis}): taking a waiter out of a queue. Leaving is sent without waiting: the command is ordered before any
 * later one on the same connection, closing the client lets it finish ({@link PendingWork}), and a place left behind
 * lapses by itself.
 */
public final class QueueUpkeep {

    private final NodeSet nodes;
    private final PendingWork pending;

    public QueueUpkeep(NodeSet nodes, PendingWork pending) {
        this.nodes = nodes;
        this.pending = pending;
    }

    /** Takes a waiter out of a resource's queue on every node. */
    public void leave(Keys keys, String waiterId) {
        String[] queueKeys = keys.queue();
        String[] args = new Scripts.LeaveQueue(waiterId).argv();
        nodes.send((i, node) -> leaveOn(node, queueKeys, args));
    }

    /** Takes a waiter out of a resource's queue on one node. */
    public void leave(NodeClient node, Keys keys, String waiterId) {
        leaveOn(node, keys.queue(), new Scripts.LeaveQueue(waiterId).argv());
    }

    private CompletionStage<Long> leaveOn(NodeClient node, String[] queueKeys, String[] args) {
        CompletableFuture<Long> left = node.eval(Scripts.LEAVE_QUEUE, queueKeys, args).toCompletableFuture();
        pending.track(left);
        return left;
    }
}
