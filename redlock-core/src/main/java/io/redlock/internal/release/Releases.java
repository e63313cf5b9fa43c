package io.redlock.internal.release;

import io.redlock.internal.node.NodeSet;
import io.redlock.internal.node.Script;
import io.redlock.internal.protocol.HeldKeys;
import io.redlock.internal.protocol.Scripts;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * Compare-and-delete of a lease value on every node (SPEC R5, R7): a holder's release, a lost attempt's clean-up and a
 * release by value. Each node's delete is a {@link NodeDelete}, repeated until it landed; the work still running is
 * {@link PendingWork} that {@link #stop(Duration)} lets finish, bounded.
 */
public final class Releases {

    /** A script reply of 1: the node held our value and applied the change. */
    public static final Predicate<Long> CONFIRMED = reply -> reply != null && reply == 1L;

    private final NodeSet nodes;
    private final PendingWork pending;
    /**
     * A holder's release is announced whether anyone is queued or not: waiters of the kinds that do not queue
     * (readers, locks of several resources, permits) listen too. With fencing, a failed attempt's clean-up is announced only while someone is
     * queued, as only queued waiters (and split votes among them) act on it.
     */
    private final boolean cleanupOnlyToQueue;
    /**
     * A release is announced only while some client subscribes to its channel on that node, unless a member is a
     * Redis Cluster: its nodes deliver a message to every node's subscribers but count only their own.
     */
    private final boolean onlyHeard;
    /** Set once {@link #stop(Duration)} let the pending deletes finish: the connections are closing. */
    private volatile boolean stopped;

    public Releases(NodeSet nodes, PendingWork pending, boolean fencing, boolean clusterMember) {
        this.nodes = nodes;
        this.pending = pending;
        this.cleanupOnlyToQueue = fencing;
        this.onlyHeard = !clusterMember;
    }

    /**
     * The compare-and-delete on every node, each a {@link NodeDelete}: sent after that node's acquire reply, and
     * repeated until it landed or the key would have expired anyway at {@code expiresAt}. The release message is
     * {@code prefix} ({@link Scripts#RELEASED_BY_HOLDER} or {@link Scripts#RELEASED_BY_CLEANUP}), then the value.
     * Returns each node's first reply.
     */
    public List<CompletableFuture<Long>> after(List<? extends CompletableFuture<?>> acquireReplies, HeldKeys names,
            String value, String prefix, long expiresAt) {
        Script script = names.releaseScript();
        String[] keys = names.release();
        boolean onlyQueued = !Scripts.RELEASED_BY_HOLDER.equals(prefix) && cleanupOnlyToQueue;
        String[] args = new Scripts.Release(value, prefix + value, onlyQueued, onlyHeard,
                names.releasedChannels()).argv();
        DeleteGroup deletes = new DeleteGroup(nodes.size());
        List<CompletableFuture<Long>> replies = nodes.send((i, node) -> NodeDelete.after(this, node,
                acquireReplies.get(i), script, keys, args, expiresAt, deletes).firstReply());
        pending.track(deletes);
        return replies;
    }

    NodeSet nodes() {
        return nodes;
    }

    /** True once the client is closing its connections: no more repeats are sent. */
    public boolean stopped() {
        return stopped;
    }

    /** Lets the pending deletes (and other tracked work) land for at most {@code wait}, then stops repeats. */
    public void stop(Duration wait) {
        pending.awaitFinished(nodes.ticker(), wait);
        stopped = true;
    }
}
