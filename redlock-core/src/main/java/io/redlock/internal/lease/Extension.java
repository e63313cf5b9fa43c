package io.redlock.internal.lease;

import io.redlock.NodeFailure;
import io.redlock.QuorumUnreachableException;
import io.redlock.internal.node.NodeSet;
import io.redlock.internal.node.Script;
import io.redlock.internal.parts.Events;
import io.redlock.internal.parts.Lifecycle;
import io.redlock.internal.parts.Parts;
import io.redlock.internal.parts.Validity;
import io.redlock.internal.protocol.Scripts;
import io.redlock.internal.release.Releases;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * SPEC R8: compare-and-PEXPIRE on every node, counted only with a majority inside the new validity. Called by a
 * lease's {@code extend}, its {@link Watchdog}, and an extension by value; the decision runs on the thread of the
 * deciding reply (a Lettuce I/O thread) or the scheduler at the per-node timeout.
 */
public final class Extension {

    private static final Logger log = LoggerFactory.getLogger(Extension.class);

    private final NodeSet nodes;
    private final Events events;
    private final Lifecycle lifecycle;
    private final double driftFactor;

    public Extension(Parts parts) {
        this.nodes = parts.nodes();
        this.events = parts.events();
        this.lifecycle = parts.lifecycle();
        this.driftFactor = parts.config().driftFactor();
    }

    /**
     * Renews {@code lease} for {@code ttl} if a majority still holds its value; shortens its validity to what the
     * nodes may have kept otherwise. Fails with {@link QuorumUnreachableException} when errors no retry can fix kept
     * a majority from answering.
     *
     * @throws io.redlock.RedlockClosedException once the client is closed
     */
    CompletableFuture<ExtendOutcome> extend(RedlockLease lease, Duration ttl) {
        lifecycle.ensureOpen();
        if (!lease.isValid() && !(lease.isAdopted() && !lease.isReleased())) {
            return CompletableFuture.completedFuture(ExtendOutcome.FAILED);
        }
        long ttlMillis = ttl.toMillis();
        long ttlNanos = TimeUnit.MILLISECONDS.toNanos(ttlMillis);
        long start = nodes.ticker().read();
        lease.footprint().writing(start + ttlNanos);
        List<CompletableFuture<Long>> pexpires = pexpire(lease, ttlMillis);
        CompletableFuture<ExtendOutcome> outcome = nodes.quorum(pexpires, Releases.CONFIRMED).thenApply(round -> {
            long validity = Validity.validityNanos(ttlNanos, round.decidedAt() - start, driftFactor);
            long newValidUntil = Validity.validUntil(start, ttlNanos, driftFactor);
            if (round.won() && validity > 0) {
                // a confirmation that comes after the lease ended (lost, released, run out) does not revive it
                return lease.renew(newValidUntil) ? ExtendOutcome.EXTENDED : ExtendOutcome.FAILED;
            }
            lease.shortenTo(newValidUntil);
            List<NodeFailure> failures = round.failures();
            if (round.failuresPreventQuorum() && failures.stream().anyMatch(f -> f.kind() == NodeFailure.Kind.ERROR)) {
                throw new QuorumUnreachableException("cannot extend '" + lease.resource() + "': " + failures.size()
                        + " of " + nodes.size() + " nodes failed: " + failures, failures);
            }
            log.debug("{}: extension not confirmed by a majority; failures: {}", lease.resource(), failures);
            return round.refusalsPreventQuorum() ? ExtendOutcome.REFUSED : ExtendOutcome.FAILED;
        });
        outcome.whenComplete((result, failure) -> events.observe(o -> o.extension(lease.resource(),
                result == ExtendOutcome.EXTENDED, Duration.ofNanos(nodes.ticker().read() - start))));
        return outcome;
    }

    /**
     * Re-expires {@code lease}'s keys to {@code keep} on every node that still holds its value, whatever the others
     * answer: for a minimum hold at the end of a lease, where no majority is needed, as the holder no longer counts on
     * the lease. It only ever moves an expiry to at least {@code keep} after it lands, so no node frees the lock sooner
     * than {@code keep} from now; a node it does not reach keeps the expiry it had. Done once every node answered, or
     * at the per-node timeout.
     *
     * @throws io.redlock.RedlockClosedException once the client is closed
     */
    CompletableFuture<Void> reExpire(RedlockLease lease, Duration keep) {
        lifecycle.ensureOpen();
        List<CompletableFuture<Long>> pexpires = pexpire(lease, Math.max(1, keep.toMillis()));
        return nodes.all(pexpires, Releases.CONFIRMED).handle((round, failure) -> null);
    }

    /** The lease's extension script on every node: its keys expire {@code ttlMillis} from now where it holds them. */
    private List<CompletableFuture<Long>> pexpire(RedlockLease lease, long ttlMillis) {
        Script script = lease.keys().extendScript();
        String[] keys = lease.keys().extend();
        String[] args = new Scripts.Extend(lease.value(), ttlMillis).argv();
        return nodes.send((i, node) -> node.eval(script, keys, args));
    }
}
