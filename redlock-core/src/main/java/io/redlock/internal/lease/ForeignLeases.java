package io.redlock.internal.lease;

import io.redlock.Lease;
import io.redlock.NodeFailure;
import io.redlock.QuorumUnreachableException;
import io.redlock.RedlockConfig;
import io.redlock.RedlockConfigException;
import io.redlock.ReleaseResult;
import io.redlock.internal.node.NodeSet;
import io.redlock.internal.parts.ConfigCheck;
import io.redlock.internal.parts.Parts;
import io.redlock.internal.protocol.Keys;
import io.redlock.internal.protocol.Scripts;
import io.redlock.internal.release.Releases;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Extend and release of a lease acquired elsewhere — another process, say a shell script using the {@code redlock}
 * command — known only by its resource and value. The handle it makes has an unknown token, and its keys are deemed
 * to live for the default TTL (the real one is unknown here).
 */
public final class ForeignLeases {

    private final Parts parts;
    private final Leases leases;
    private final Extension extension;

    public ForeignLeases(Parts parts, Leases leases, Extension extension) {
        this.parts = parts;
        this.leases = leases;
        this.extension = extension;
    }

    /** The renewed handle if a majority still held {@code value} and confirmed the extension. */
    public CompletableFuture<Optional<Lease>> extend(String resource, String value, Duration ttl) {
        RedlockConfig config = parts.config();
        ConfigCheck.resource(resource);
        ConfigCheck.ttlLeavesValidity("ttl", ttl, config.nodeTimeout(), config.driftFactor());
        parts.lifecycle().ensureOpen();
        RedlockLease adopted = adopt(Keys.of(config, resource), resource, value);
        return extension.extend(adopted, ttl).thenApply(outcome ->
                outcome == ExtendOutcome.EXTENDED ? Optional.<Lease>of(adopted) : Optional.<Lease>empty());
    }

    /** How many nodes held {@code value} and deleted it, and which did not answer; waits for every node. */
    public CompletableFuture<ReleaseResult> release(String resource, String value) {
        ConfigCheck.resource(resource);
        parts.lifecycle().ensureOpen();
        RedlockLease adopted = adopt(Keys.of(parts.config(), resource), resource, value);
        NodeSet nodes = parts.nodes();
        List<CompletableFuture<Long>> deletes = parts.releases().after(adopted.footprint().replies(), adopted.keys(),
                value, Scripts.RELEASED_BY_HOLDER, adopted.footprint().expiry());
        return nodes.all(deletes, Releases.CONFIRMED).thenApply(round -> {
            List<NodeFailure> failures = round.failures();
            if (round.failuresPreventQuorum() && round.granted() == 0) {
                throw new QuorumUnreachableException("cannot release '" + resource + "': "
                        + failures.size() + " of " + nodes.size() + " nodes failed: " + failures, failures);
            }
            return new ReleaseResult(round.granted(), nodes.size() - failures.size(), parts.config().quorum(),
                    failures);
        });
    }

    private RedlockLease adopt(Keys keys, String resource, String value) {
        if (value == null || value.isBlank()) {
            throw new RedlockConfigException("lease value must not be blank");
        }
        NodeSet nodes = parts.nodes();
        List<CompletableFuture<String>> none = nodes.send((i, node) -> CompletableFuture.completedFuture("OK"));
        long now = nodes.ticker().read();
        return new RedlockLease(leases, nodes.ticker(), resource, keys, value, now,
                new Footprint(none, now + parts.config().defaultTtl().toNanos()), RedlockLease.UNKNOWN_TOKEN);
    }
}
