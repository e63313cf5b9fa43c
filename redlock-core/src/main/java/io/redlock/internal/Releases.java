package io.redlock.internal;

import io.redlock.NodeFailure;
import io.redlock.QuorumUnreachableException;
import io.redlock.ReleaseResult;
import io.redlock.internal.node.NodeSet;
import io.redlock.internal.node.Script;
import io.redlock.internal.protocol.HeldKeys;
import io.redlock.internal.protocol.Scripts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compare-and-delete of a lease value on every node (SPEC R5, R7): a holder's release, a lost attempt's clean-up and a
 * release by value. Each node's delete is a {@link NodeDelete}, repeated until it landed; the work still running is
 * {@link PendingWork} that {@link #stop(Duration)} lets finish, bounded.
 */
final class Releases {

    /** A script reply of 1: the node held our value and applied the change. */
    static final Predicate<Long> CONFIRMED = reply -> reply != null && reply == 1L;

    private static final Logger log = LoggerFactory.getLogger(Releases.class);

    private final NodeSet nodes;
    private final PendingWork pending;
    /**
     * A holder's release is always announced: waiters of the kinds that do not queue (readers, locks of several
     * resources, permits) listen too. With fencing, a failed attempt's clean-up is announced only while someone is
     * queued, as only queued waiters (and split votes among them) act on it.
     */
    private final boolean cleanupOnlyToQueue;
    private final int quorum;
    /** Set once {@link #stop(Duration)} let the pending deletes finish: the connections are closing. */
    private volatile boolean stopped;

    Releases(NodeSet nodes, PendingWork pending, boolean fencing, int quorum) {
        this.nodes = nodes;
        this.pending = pending;
        this.cleanupOnlyToQueue = fencing;
        this.quorum = quorum;
    }

    /**
     * SPEC R7: done once a majority answered (the lock is then free for others) or at the per-node timeout. The other
     * nodes' deletes are sent already and land in the background: waiting for the slowest node would only add its
     * latency to every hand-over.
     */
    CompletableFuture<Void> release(RedlockLease lease) {
        if (stopped) {
            log.debug("{}: Redlock is closed; the lease is left to expire", lease.resource());
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<Long>> deletes = after(lease.acquireReplies(), lease.keys(), lease.value(),
                Scripts.RELEASED_BY_HOLDER, lease.keyExpiry());
        return nodes.quorum(deletes, CONFIRMED).handle((round, failure) -> {
            if (failure != null) {
                log.debug("{}: release abandoned, the Redlock was closed; the keys expire by their TTL",
                        lease.resource());
            } else if (log.isDebugEnabled() && !round.failures().isEmpty()) {
                log.debug("{}: release did not reach {}; those keys expire by their TTL", lease.resource(),
                        round.failures());
            }
            return null;
        });
    }

    /** Releases a value held elsewhere, waiting for every node: how many held it, which did not answer. */
    CompletableFuture<ReleaseResult> releaseValue(RedlockLease adopted) {
        List<CompletableFuture<Long>> deletes = after(adopted.acquireReplies(), adopted.keys(), adopted.value(),
                Scripts.RELEASED_BY_HOLDER, adopted.keyExpiry());
        return nodes.all(deletes, CONFIRMED).thenApply(round -> {
            List<NodeFailure> failures = round.failures();
            if (round.failuresPreventQuorum() && round.granted() == 0) {
                throw new QuorumUnreachableException("cannot release '" + adopted.resource() + "': "
                        + failures.size() + " of " + nodes.size() + " nodes failed: " + failures, failures);
            }
            return new ReleaseResult(round.granted(), nodes.size() - failures.size(), quorum, failures);
        });
    }

    /**
     * The compare-and-delete on every node, each a {@link NodeDelete}: sent after that node's acquire reply, and
     * repeated until it landed or the key would have expired anyway at {@code expiresAt}. The release message is
     * {@code prefix} ({@link Scripts#RELEASED_BY_HOLDER} or {@link Scripts#RELEASED_BY_CLEANUP}), then the value.
     * Returns each node's first reply.
     */
    List<CompletableFuture<Long>> after(List<? extends CompletableFuture<?>> acquireReplies, HeldKeys names,
            String value, String prefix, long expiresAt) {
        Script script = names.releaseScript();
        String[] keys = names.release();
        boolean onlyQueued = !Scripts.RELEASED_BY_HOLDER.equals(prefix) && cleanupOnlyToQueue;
        String[] args = new Scripts.Release(value, prefix + value, onlyQueued, names.releasedChannels()).argv();
        List<CompletableFuture<?>> settled = new ArrayList<>(nodes.size());
        List<CompletableFuture<Long>> replies = nodes.send((i, node) -> {
            NodeDelete delete = NodeDelete.after(this, node, acquireReplies.get(i), script, keys, args, expiresAt);
            settled.add(delete.settled());
            return delete.firstReply();
        });
        pending.track(CompletableFuture.allOf(settled.toArray(CompletableFuture[]::new)));
        return replies;
    }

    NodeSet nodes() {
        return nodes;
    }

    /** True once the engine is closing its connections: no more repeats are sent. */
    boolean stopped() {
        return stopped;
    }

    /** Lets the pending deletes (and other tracked work) land for at most {@code wait}, then stops repeats. */
    void stop(Duration wait) {
        pending.awaitFinished(nodes.ticker(), wait);
        stopped = true;
    }
}
