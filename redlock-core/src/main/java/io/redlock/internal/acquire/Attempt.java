package io.redlock.internal.acquire;

import io.redlock.Lease;
import io.redlock.LockKindMismatchException;
import io.redlock.internal.lease.Leases;
import io.redlock.internal.lease.RedlockLease;
import io.redlock.internal.node.Failures;
import io.redlock.internal.node.NodeClient;
import io.redlock.internal.node.NodeSet;
import io.redlock.internal.node.RoundResult;
import io.redlock.internal.node.Script;
import io.redlock.internal.parts.FaultHooks;
import io.redlock.internal.parts.Parts;
import io.redlock.internal.parts.Validity;
import io.redlock.internal.protocol.FencedReply;
import io.redlock.internal.protocol.HeldKeys;
import io.redlock.internal.protocol.Keys;
import io.redlock.internal.protocol.ScriptSettings;
import io.redlock.internal.protocol.Scripts;
import io.redlock.internal.release.Releases;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One acquisition attempt with a fresh random value: SPEC R3–R5, and with fencing FENCING.md steps 1–4. Sends to
 * every node at once, decides on the majority, and on any failure releases on all nodes before reporting "not
 * acquired".
 */
final class Attempt {

    private static final Logger log = LoggerFactory.getLogger(Attempt.class);

    private final Parts parts;
    private final Leases leases;
    private final NodeSet nodes;
    private final String resource;
    private final String key;
    private final HeldKeys keys;
    private final String value;
    private final String waiterId;
    private final long ticket;
    private final long ttlMillis;
    private final long ttlNanos;
    private final double driftFactor;
    private long start;
    private volatile long freeInNanos = -1;
    private volatile int grantsSeen;
    private volatile long ticketSeen;
    private volatile boolean failuresPreventedQuorum;
    private volatile HeldKeys.Next next;

    /**
     * @param keys the names of the lock
     * @param value this attempt's fresh random value
     * @param waiterId with fencing, the caller's id in the waiter queue of its one resource; null if it will not wait
     * @param ticket the largest ticket the caller was given so far, 0 if none
     */
    Attempt(Parts parts, Leases leases, String resource, HeldKeys keys, long ttlMillis, String value, String waiterId,
            long ticket) {
        this.parts = parts;
        this.leases = leases;
        this.nodes = parts.nodes();
        this.resource = resource;
        this.key = keys.lock();
        this.keys = keys;
        this.waiterId = waiterId;
        this.ticket = ticket;
        this.value = value;
        this.ttlMillis = ttlMillis;
        this.ttlNanos = TimeUnit.MILLISECONDS.toNanos(ttlMillis);
        this.driftFactor = parts.config().driftFactor();
    }


    /** After a lost attempt with fencing: the largest queue ticket a node gave the caller, 0 if none queued it. */
    long ticketSeen() {
        return ticketSeen;
    }

    /**
     * After a lost attempt with fencing: when a majority of nodes should be free, from the holders' remaining TTLs
     * reported by the refusing nodes, in nanoseconds from the end of the attempt; -1 if unknown.
     */
    long freeInNanos() {
        return freeInNanos;
    }

    /** After a lost attempt: how many nodes had granted it when it was decided (0 if the lock was plainly held). */
    int grantsSeen() {
        return grantsSeen;
    }

    /** After a lost attempt: the keys of the next round, and whether to send it at once ({@link HeldKeys#afterLoss}). */
    HeldKeys.Next next() {
        HeldKeys.Next after = next;
        return after == null ? new HeldKeys.Next(keys, false) : after;
    }

    /** After a lost attempt: true if node failures alone made a majority impossible (not contention). */
    boolean failuresPreventedQuorum() {
        return failuresPreventedQuorum;
    }

    CompletableFuture<Optional<Lease>> run() {
        start = parts.ticker().read();
        // a lock of several resources, or a reader, takes its lock in its script, with or without fencing
        return parts.config().fencing() || !(keys instanceof Keys) ? fenced() : plain();
    }

    /** SPEC R3–R4: SET NX PX everywhere; a majority inside the validity wins. */
    private CompletableFuture<Optional<Lease>> plain() {
        List<CompletableFuture<String>> sets = nodes.send((i, node) -> node.setNxPx(key, value, ttlMillis));
        return nodes.quorum(sets, "OK"::equals).thenCompose(round -> {
            parts.events().voted(round, nodes);
            return round.won() && validNow() ? granted(sets, RedlockLease.NO_TOKEN, round) : lost(sets, round);
        });
    }

    /**
     * FENCING.md 1–2: lock and increment the counter everywhere; T is the largest counter among the grants seen. A
     * lock of several resources without fencing comes this way too: every grant is 1, and no commit follows.
     */
    private CompletableFuture<Optional<Lease>> fenced() {
        ScriptSettings settings = parts.scriptSettings();
        Keys queued = waiterId != null && keys instanceof Keys one ? one : null;
        String[] acquireKeys = queued != null ? queued.acquireInQueue() : keys.acquire();
        String[] acquireArgs = queued != null ? queued.acquireArgs(value, ttlMillis, settings, waiterId, ticket)
                : keys.acquireArgs(value, ttlMillis, settings);
        Script script = keys.acquireScript();
        List<CompletableFuture<Long>> grants = nodes.send((i, node) -> node.eval(script, acquireKeys, acquireArgs));
        return nodes.quorum(grants, FencedReply::isGrant).thenCompose(round -> {
            parts.events().voted(round, nodes);
            Optional<String> mismatch = Failures.kindMismatch(round.failures());
            if (mismatch.isPresent()) { // what other nodes granted is released, then the caller hears why
                return lost(grants, round).handle((released, failure) -> {
                    throw new LockKindMismatchException(resource, mismatch.get());
                });
            }
            if (!round.won()) {
                freeInNanos = freeIn(round);
                grantsSeen = round.granted();
                ticketSeen = ticketIn(round);
                next = keys.afterLoss(round, parts.config().quorum());
                return lost(grants, round);
            }
            long token = 0;
            int atToken = 0;
            for (int i = 0; i < nodes.size(); i++) {
                Long reply = round.reply(i);
                if (FencedReply.isGrant(reply)) {
                    if (reply > token) {
                        token = reply;
                        atToken = 0;
                    }
                    if (reply == token) {
                        atToken++;
                    }
                }
            }
            if (atToken >= parts.config().quorum()) {
                return validNow() ? granted(grants, token, round) : lost(grants, round);
            }
            return commit(grants, round, token);
        });
    }

    /**
     * FENCING.md 3–4: raise the other granted nodes to T under the ownership check; usable only with a majority at
     * T and validity left after this second round. A node's commit is sent after its own acquire reply.
     */
    private CompletableFuture<Optional<Lease>> commit(List<CompletableFuture<Long>> grants, RoundResult<Long> round,
            long token) {
        parts.faultHooks().reached(key, FaultHooks.Point.BEFORE_COMMIT);
        Script commitScript = keys.commitScript();
        String[] commitKeys = keys.acquire();
        String[] commitArgs = keys.commitArgs(value, token, parts.scriptSettings());
        List<CompletableFuture<Long>> commits = nodes.send((i, node) -> grants.get(i).handle((reply, failure) -> {
            if (!FencedReply.isGrant(reply) || reply > token) {
                return CompletableFuture.completedFuture(0L); // not ours here, or raised past T by a grant we never saw
            }
            return reply == token ? CompletableFuture.completedFuture(1L)
                    : node.eval(commitScript, commitKeys, commitArgs).toCompletableFuture();
        }).thenCompose(Function.identity()));
        log.debug("{}: counters disagree, committing token {} (round 2)", resource, token);
        return nodes.quorum(commits, Releases.CONFIRMED).thenCompose(committed -> {
            failuresPreventedQuorum = committed.failuresPreventQuorum();
            if (committed.won() && validNow()) {
                return granted(grants, token, round);
            }
            if (counterMovedPast(committed)) {
                next = keys.afterCommitClash();
            }
            return lost(grants, round);
        });
    }

    /** True if a node refused the commit because its counter was at T or past it. */
    private boolean counterMovedPast(RoundResult<Long> committed) {
        for (int i = 0; i < nodes.size(); i++) {
            if (FencedReply.isCounterPast(committed.reply(i))) {
                return true;
            }
        }
        return false;
    }

    /** SPEC R4 at the moment the decision is processed (a client paused meanwhile finds no validity left). */
    private boolean validNow() {
        parts.faultHooks().reached(key, FaultHooks.Point.BEFORE_DECISION);
        return validAt(parts.ticker().read());
    }

    private boolean validAt(long now) {
        long validity = Validity.validityNanos(ttlNanos, now - start, driftFactor);
        if (validity <= 0) {
            log.debug("{}: majority reached but no validity left ({} ms elapsed of {} ms TTL)", resource,
                    TimeUnit.NANOSECONDS.toMillis(now - start), ttlMillis);
        }
        return validity > 0;
    }

    private CompletableFuture<Optional<Lease>> granted(List<? extends CompletableFuture<?>> replies, long token,
            RoundResult<?> round) {
        parts.faultHooks().reached(key, FaultHooks.Point.AFTER_VALIDITY);
        if (!validAt(parts.ticker().read())) {
            return lost(replies, round); // never hand over a lease whose validity already ran out
        }
        parts.health().restored();
        RedlockLease lease = leases.granted(resource, keys, value, Validity.validUntil(start, ttlNanos, driftFactor),
                start + ttlNanos, replies, parts.config().fencing() ? token : RedlockLease.NO_TOKEN);
        leaveQueueWhereRefused(replies);
        parts.faultHooks().reached(key, FaultHooks.Point.AFTER_HANDOVER);
        return CompletableFuture.completedFuture(Optional.of(lease));
    }

    /**
     * SPEC R5: release everywhere, also where the reply was lost. Waits for the nodes that answered; the others only
     * until this attempt's own per-node deadline, so a stalled node costs one timeout.
     */
    private CompletableFuture<Optional<Lease>> lost(List<? extends CompletableFuture<?>> replies,
            RoundResult<?> round) {
        failuresPreventedQuorum |= round.failuresPreventQuorum();
        List<CompletableFuture<Long>> deletes = parts.releases().after(replies, keys, value,
                Scripts.RELEASED_BY_CLEANUP, start + ttlNanos);
        return nodes.required(deletes, Releases.CONFIRMED, round.answered(), start + nodes.nodeTimeoutNanos())
                .thenApply(released -> parts.health().notAcquired(resource, round));
    }

    /**
     * The quorum-th smallest time until a node is free: ours are free now, unknown ones never, and so are free ones
     * where other waiters stand before us (only their turns free them).
     */
    private long freeIn(RoundResult<Long> round) {
        long[] free = new long[nodes.size()];
        for (int i = 0; i < free.length; i++) {
            Long reply = round.reply(i);
            if (FencedReply.isGrant(reply)) {
                free[i] = 0;
            } else {
                long remainingMillis = FencedReply.remainingMillis(reply);
                free[i] = remainingMillis == 0 ? Long.MAX_VALUE : TimeUnit.MILLISECONDS.toNanos(remainingMillis);
            }
        }
        java.util.Arrays.sort(free);
        long majorityFree = free[parts.config().quorum() - 1];
        return majorityFree == Long.MAX_VALUE ? -1 : majorityFree;
    }

    /** A waiter that won still has a place on the nodes that refused it, now or in a late reply: it leaves them. */
    private void leaveQueueWhereRefused(List<? extends CompletableFuture<?>> replies) {
        if (waiterId == null || !(keys instanceof Keys queued)) {
            return;
        }
        for (int i = 0; i < nodes.size(); i++) {
            NodeClient node = nodes.get(i);
            CompletableFuture<?> reply = replies.get(i);
            if (reply.isDone() && !reply.isCompletedExceptionally() && !FencedReply.isQueued(reply.join())) {
                continue; // the usual case: granted here, so not queued here
            }
            reply.thenAccept(late -> {
                if (FencedReply.isQueued(late)) {
                    parts.queue().leave(node, queued, waiterId);
                }
            });
        }
    }

    private long ticketIn(RoundResult<Long> round) {
        long largest = 0;
        for (int i = 0; i < nodes.size(); i++) {
            largest = Math.max(largest, FencedReply.ticket(round.reply(i)));
        }
        return largest;
    }
}
