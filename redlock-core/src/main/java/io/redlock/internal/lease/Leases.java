package io.redlock.internal.lease;

import io.redlock.RedlockConfig;
import io.redlock.internal.parts.ConfigCheck;
import io.redlock.internal.parts.Parts;
import io.redlock.internal.protocol.HeldKeys;
import io.redlock.internal.protocol.Scripts;
import io.redlock.internal.release.Releases;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where granted leases are made, and what they ask of the client ({@link LeaseOps}): extension, release, re-expiry
 * and a watchdog. A lease granted while a global listener wants losses is watched from the start.
 */
public final class Leases implements LeaseOps {

    private static final Logger log = LoggerFactory.getLogger(Leases.class);

    private final Parts parts;
    private final Extension extension;
    private final KeptAlive keptAlive;

    public Leases(Parts parts, Extension extension, KeptAlive keptAlive) {
        this.parts = parts;
        this.extension = extension;
        this.keptAlive = keptAlive;
    }

    /**
     * The lease an acquisition won, watched if a global listener wants to hear about its loss.
     *
     * @param validUntil     the ticker reading at which it stops being valid
     * @param keyExpiry      the ticker reading at which its keys would have expired on every node by themselves
     * @param acquireReplies the acquisition's per-node replies
     * @param token          its fencing token, or {@link RedlockLease#NO_TOKEN}
     */
    public RedlockLease granted(String resource, HeldKeys keys, String value, long validUntil, long keyExpiry,
            List<? extends CompletableFuture<?>> acquireReplies, long token) {
        RedlockLease lease = new RedlockLease(this, parts.ticker(), resource, keys, value, validUntil,
                new Footprint(acquireReplies, keyExpiry), token);
        if (parts.events().listening()) {
            watch(lease);
        }
        return lease;
    }

    /** See {@link Extension#extend}; checks the TTL first. */
    @Override
    public CompletableFuture<Boolean> extend(RedlockLease lease, Duration ttl) {
        RedlockConfig config = parts.config();
        ConfigCheck.ttlLeavesValidity("ttl", ttl, config.nodeTimeout(), config.driftFactor());
        return extension.extend(lease, ttl).thenApply(outcome -> outcome == ExtendOutcome.EXTENDED);
    }

    /**
     * SPEC R7: done once a majority answered (the lock is then free for others) or at the per-node timeout. The other
     * nodes' deletes are sent already and land in the background: waiting for the slowest node would only add its
     * latency to every hand-over.
     */
    @Override
    public CompletableFuture<Void> release(RedlockLease lease) {
        Releases releases = parts.releases();
        if (releases.stopped()) {
            log.debug("{}: Redlock is closed; the lease is left to expire", lease.resource());
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<Long>> deletes = releases.after(lease.footprint().replies(), lease.keys(), lease.value(),
                Scripts.RELEASED_BY_HOLDER, lease.footprint().expiry());
        return parts.nodes().quorum(deletes, Releases.CONFIRMED).handle((round, failure) -> {
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

    @Override
    public CompletableFuture<Void> reExpire(RedlockLease lease, Duration keep) {
        return extension.reExpire(lease, keep);
    }

    @Override
    public Watchdog watch(RedlockLease lease) {
        return Watchdog.of(parts, extension, keptAlive, lease);
    }
}
