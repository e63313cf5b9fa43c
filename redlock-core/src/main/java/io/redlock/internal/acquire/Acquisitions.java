package io.redlock.internal.acquire;

import io.lettuce.core.cluster.SlotHash;
import io.redlock.Lease;
import io.redlock.LockTarget.Kind;
import io.redlock.LockTarget;
import io.redlock.MultiLease;
import io.redlock.RedlockConfig;
import io.redlock.RedlockConfigException;
import io.redlock.RedlockObserver;
import io.redlock.Ticker;
import io.redlock.internal.lease.Leases;
import io.redlock.internal.lease.RedlockLease;
import io.redlock.internal.lease.RedlockMultiLease;
import io.redlock.internal.parts.ConfigCheck;
import io.redlock.internal.parts.Lifecycle;
import io.redlock.internal.parts.Parts;
import io.redlock.internal.protocol.HeldKeys;
import io.redlock.internal.protocol.Keys;
import io.redlock.internal.protocol.KeysOfAll;
import io.redlock.internal.protocol.PermitKeys;
import io.redlock.internal.protocol.ReaderKeys;
import io.redlock.internal.protocol.Scripts;
import io.redlock.internal.time.Deadline;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The acquire calls of every kind of lock: each call's arguments checked, the keys of its kind, its
 * {@link AcquireLoop} started and told to the observers; closing the client ends the calls still running.
 */
public final class Acquisitions {

    private final Parts parts;
    private final Leases leases;
    /** The calls still running: closing ends them. */
    private final Set<CompletableFuture<?>> acquiring = ConcurrentHashMap.newKeySet();

    public Acquisitions(Parts parts, Leases leases) {
        this.parts = parts;
        this.leases = leases;
    }

    /**
     * Acquisition rounds of {@code resource}'s lock until one succeeds or {@code maxWait} is spent; {@code ZERO}
     * means one round. The stage also tells how the call ended ({@link Acquiring#nodesUnavailable()}).
     */
    public Acquiring acquire(String resource, Duration ttl, Duration maxWait) {
        return acquire(LockTarget.of(resource), ttl, maxWait);
    }

    /**
     * {@link #acquire} of several resources at once ({@link Scripts#ACQUIRE_ALL}): each node grants all of them or
     * none. The stage completes with the {@link MultiLease}, or empty; completing it early (cancel, interrupt) ends
     * the rounds, and a lease won meanwhile is released.
     */
    public CompletionStage<Optional<MultiLease>> acquireAll(Collection<String> resources, Duration ttl, Duration maxWait) {
        List<String> all = ConfigCheck.resources(resources);
        Acquiring rounds = acquireSeveral(all, ttl, maxWait);
        CompletableFuture<Optional<MultiLease>> multi = rounds
                .thenApply(lease -> lease.map(held -> new RedlockMultiLease(all, (RedlockLease) held)));
        multi.whenComplete((lease, failure) -> {
            if (failure != null && !rounds.completeExceptionally(failure)) {
                rounds.thenAccept(won -> won.ifPresent(Lease::releaseAsync)); // won just before the caller gave up
            }
        });
        return multi;
    }

    /**
     * {@link #acquire} of any kind of lock ({@link LockTarget}); a lock of several resources completes with the lease
     * of their keys.
     */
    public Acquiring acquire(LockTarget target, Duration ttl, Duration maxWait) {
        Kind kind = target.kind();
        if (kind == Kind.SEVERAL) {
            return acquireSeveral(ConfigCheck.resources(target.resources()), ttl, maxWait);
        }
        String resource = target.resource();
        ConfigCheck.resource(resource);
        Keys keys = Keys.of(parts.config(), resource);
        HeldKeys held = switch (kind) {
            // a reader: granted beside other readers, refused while a writer holds the resource or waits for it
            case READ -> new ReaderKeys(keys);
            // a permit: the first try asks for a random slot, so callers spread over the free ones
            case PERMIT -> {
                ConfigCheck.permits(target.permits());
                yield PermitKeys.first(keys, target.permits(), parts.random().nextInt(target.permits()));
            }
            default -> keys;
        };
        return rounds(kind, resource, held, ttl, maxWait);
    }

    private Acquiring acquireSeveral(List<String> all, Duration ttl, Duration maxWait) {
        return rounds(Kind.SEVERAL, all.toString(), keysOfAll(all), ttl, maxWait);
    }

    /** The acquisition rounds of {@code keys}, after the checks every kind of lock shares. */
    private Acquiring rounds(Kind kind, String name, HeldKeys keys, Duration ttl, Duration maxWait) {
        RedlockConfig config = parts.config();
        ConfigCheck.ttlLeavesValidity("ttl", ttl, config.nodeTimeout(), config.driftFactor());
        ConfigCheck.maxWait(maxWait);
        parts.lifecycle().ensureOpen();
        return start(kind, name, keys, ttl, maxWait);
    }

    /**
     * Starts one acquire call: rounds until one succeeds or {@code maxWait} is spent ({@code ZERO}: one round). The
     * observers hear that it starts, and how it ended before the caller does. Completing the returned stage early
     * (cancel, interrupt, close) ends the rounds; a lease won meanwhile is released.
     */
    private Acquiring start(Kind kind, String resource, HeldKeys keys, Duration ttl, Duration maxWait) {
        Acquiring result = new Acquiring();
        CompletableFuture<Optional<Lease>> ended = new CompletableFuture<>();
        Ticker ticker = parts.ticker();
        acquiring.add(result); // before the first round: close() ends it
        RedlockObserver.Acquisition observed = parts.events().acquisitionStarted(resource, kind);
        long started = ticker.read();
        AcquireLoop loop = new AcquireLoop(parts, leases, resource, keys, ttl.toMillis(),
                Deadline.after(ticker, maxWait), ended);
        result.whenComplete((lease, failure) -> {
            acquiring.remove(result);
            if (failure != null) {
                ended.completeExceptionally(failure); // the caller gave up: the rounds stop
            }
        });
        ended.whenComplete((lease, failure) -> {
            RedlockObserver.AcquireResult outcome = loop.outcome(lease, failure);
            result.ended(outcome);
            observed.ended(outcome, Optional.ofNullable(failure));
            parts.events().observe(o -> o.acquisition(resource, kind, outcome,
                    Duration.ofNanos(ticker.read() - started)));
            if (failure != null) {
                result.completeExceptionally(failure);
            } else if (!result.complete(lease)) {
                lease.ifPresent(Lease::releaseAsync); // the caller gave up meanwhile
            }
        });
        loop.attempt();
        return result;
    }

    /**
     * The keys of several resources; with a Redis Cluster member their lock keys must share one hash slot (one script
     * touches them all), else a {@link RedlockConfigException} says how to tag them.
     */
    private KeysOfAll keysOfAll(List<String> resources) {
        List<Keys> members = resources.stream().map(resource -> Keys.of(parts.config(), resource)).toList();
        if (parts.config().hashTaggedKeys()) {
            int slot = SlotHash.getSlot(members.get(0).lock());
            for (Keys member : members) {
                if (SlotHash.getSlot(member.lock()) != slot) {
                    throw new RedlockConfigException("with a Redis Cluster member the resources of one lock must share"
                            + " a hash slot, so that one script takes them all: give them one hash tag ({order:42}:a,"
                            + " {order:42}:b); " + resources + " do not");
                }
            }
        }
        return new KeysOfAll(members);
    }

    /** Ends the calls still running: each fails as closed. */
    public void close() {
        for (CompletableFuture<?> waiting : acquiring) {
            waiting.completeExceptionally(Lifecycle.closedException());
        }
    }
}
