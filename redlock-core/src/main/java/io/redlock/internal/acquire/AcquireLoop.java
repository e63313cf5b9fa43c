package io.redlock.internal.acquire;

import io.redlock.Lease;
import io.redlock.RedlockObserver;
import io.redlock.internal.lease.Leases;
import io.redlock.internal.node.Failures;
import io.redlock.internal.parts.Lifecycle;
import io.redlock.internal.parts.Parts;
import io.redlock.internal.protocol.HeldKeys;
import io.redlock.internal.protocol.Keys;
import io.redlock.internal.protocol.Scripts;
import io.redlock.internal.release.ReleaseNotifier;
import io.redlock.internal.time.Deadline;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Acquisition rounds until one succeeds or the maximum wait is spent (SPEC R6). Between rounds it sleeps a random
 * delay from the retry policy — never longer than the holder's remaining TTL plus a little jitter, when the nodes
 * reported it — and, listening to the lock events of each of its resources, tries again shortly after a holder's
 * release reached a majority of nodes. No round starts after the deadline.
 * <p>
 * With fencing, a caller that may wait queues on each node that refuses it (see {@link Scripts#ACQUIRE_FENCED}): a
 * free lock goes to the first waiter, so a client that releases and asks again at once takes its turn behind the
 * others. Queued waiters try again right after a release; the loop leaves the queue when it ends.
 */
final class AcquireLoop implements ReleaseNotifier.Listener {

    /** A pause shorter than this is not worth a hand-off to the scheduler thread. */
    private static final long INLINE_BELOW_NANOS = TimeUnit.MICROSECONDS.toNanos(300);

    private final Parts parts;
    private final Leases leases;
    private final String resource;
    /** The keys of the next round: the same ones, except while a permit sweeps its slots. */
    private volatile HeldKeys keys;
    /** The keys of the queue the caller waits in: with fencing, when it may wait for one resource; else null. */
    private final Keys queue;
    /** Whether the caller queues for the lock ({@link #queue} is set). */
    private final boolean queues;
    /** The caller's place in the waiter queues: its first attempt's value; null before that or if it does not queue. */
    private volatile String waiterId;
    private final long ttlMillis;
    private final Deadline deadline;
    private final CompletableFuture<Optional<Lease>> result;
    /** Whether the failures alone kept the latest round from a majority (nodes down, timed out or failing). */
    private volatile boolean lastRoundFailed;

    // guarded by this
    /** One per resource of the lock (a lock of several resources waits for each), while the loop listens. */
    private List<ReleaseNotifier.Subscription> events;
    private Future<?> pending;
    private boolean attempting;
    private boolean jittering;
    private boolean heldByOther;
    private boolean releasedMeanwhile;
    /** Whether another attempt's clean-up was announced while this loop's own round was in flight. */
    private boolean cleanedUpMeanwhile;
    private final Backoff backoff;
    /** The largest ticket a node gave this waiter; 0 while it has not been queued. */
    private volatile long ticket;

    /**
     * @param keys   the keys of the first round
     * @param result completes with the lease, or empty once the wait is spent; completing it early ends the rounds
     */
    AcquireLoop(Parts parts, Leases leases, String resource, HeldKeys keys, long ttlMillis, Deadline deadline,
            CompletableFuture<Optional<Lease>> result) {
        this.parts = parts;
        this.leases = leases;
        this.resource = resource;
        this.keys = keys;
        this.queue = parts.config().fencing() && !deadline.passed() && keys instanceof Keys one ? one : null;
        this.queues = queue != null;
        this.ttlMillis = ttlMillis;
        this.deadline = deadline;
        this.result = result;
        this.backoff = new Backoff(parts.config().retry());
        result.whenComplete((lease, failure) -> stop(lease != null && lease.isPresent()));
    }

    /** The first round; later rounds go through {@link #retry()}. */
    void attempt() {
        synchronized (this) {
            if (result.isDone()) {
                return;
            }
            attempting = true;
            jittering = false;
            releasedMeanwhile = false;
            cleanedUpMeanwhile = false;
            pending = null;
        }
        if (parts.lifecycle().isClosed()) {
            result.completeExceptionally(Lifecycle.closedException());
            return;
        }
        Attempt attempt;
        CompletableFuture<Optional<Lease>> round;
        try {
            String value = keys.value(parts.values().next());
            if (queues && waiterId == null) {
                waiterId = value;
            }
            attempt = new Attempt(parts, leases, resource, keys, ttlMillis, value, waiterId, ticket);
            round = attempt.run();
            if (waiterId != null && (parts.lifecycle().isClosed() || result.isDone())) {
                // closed or given up while this round was being sent, after stop() left the queue: leave again,
                // behind this round's requests on every connection, so the place it may take does not outlive us
                parts.queue().leave(queue, waiterId);
            }
            parts.pending().track(round); // close() lets it finish: a lease it wins after the close is released
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
            return;
        }
        round.whenComplete((lease, failure) -> {
            if (failure != null) {
                result.completeExceptionally(Failures.unwrap(failure));
            } else if (lease.isPresent()) {
                if (!result.complete(lease)) {
                    lease.get().releaseAsync(); // the caller gave up (interrupt, cancel or close)
                }
            } else {
                lastRoundFailed = attempt.failuresPreventedQuorum();
                ticket = Math.max(ticket, attempt.ticketSeen());
                HeldKeys.Next next = attempt.next();
                keys = next.keys();
                if (next.now()) {
                    attempt(); // a permit's sweep: another slot a majority has free, whatever the wait left
                    return;
                }
                List<ReleaseNotifier.Subscription> listening =
                        waitAndRetry(attempt.freeInNanos(), attempt.grantsSeen());
                if (listening != null) {
                    CompletableFuture.allOf(listening.stream().map(ReleaseNotifier.Subscription::inPlace)
                            .toArray(CompletableFuture[]::new)).thenRun(this::listening);
                }
            }
        });
    }

    /**
     * How the call ended, for the observer: {@code ERROR} if it threw or its last round could not reach a majority
     * because of node failures, {@code BUSY} if the lock was held elsewhere, else {@code ACQUIRED}.
     */
    RedlockObserver.AcquireResult outcome(Optional<Lease> lease, Throwable failure) {
        if (failure != null) {
            return RedlockObserver.AcquireResult.ERROR;
        }
        if (lease.isPresent()) {
            return RedlockObserver.AcquireResult.ACQUIRED;
        }
        return lastRoundFailed ? RedlockObserver.AcquireResult.ERROR : RedlockObserver.AcquireResult.BUSY;
    }

    /**
     * Waits for the next round. Returns the subscriptions to the release events if this call made them (the loop's
     * first wait), else null.
     */
    private synchronized List<ReleaseNotifier.Subscription> waitAndRetry(long freeInNanos, int grantsSeen) {
        attempting = false;
        // refused everywhere while a majority is taken: someone holds the lock and only its release matters;
        // after a split vote (we got some nodes) the clean-ups of the other contenders matter too
        heldByOther = freeInNanos > 0 && grantsSeen == 0;
        long delay = backoff.afterLoss(freeInNanos, grantsSeen, parts.random());
        long left = deadline.nanosLeft();
        if (left > 0 && ticket > 0 && (grantsSeen > 0 || cleanedUpMeanwhile)) {
            // queued waiters split the nodes among them (this one took some, or another cleaned up meanwhile); the
            // tickets they now send make the nodes agree on the order, so the next rounds have one winner: try again
            // after the short clean-up back-off, not a retry delay
            schedule(this::retry, Math.min(jitterAfter(true), left), true);
            return null;
        }
        boolean listening = parts.config().wakeOnRelease();
        if (left <= 0 || (delay > left && !listening)) {
            result.complete(Optional.empty());
            return null;
        }
        List<ReleaseNotifier.Subscription> subscribed = null;
        if (listening && events == null) {
            events = new ArrayList<>();
            for (String channel : keys.releasedChannels()) {
                events.add(parts.notifier().subscribe(channel, waiterId, this));
            }
            subscribed = List.copyOf(events);
        }
        if (releasedMeanwhile) {
            schedule(this::retry, jitterAfter(false), true);
            return subscribed;
        }
        boolean delayFits = delay <= left;
        schedule(delayFits ? this::retry : () -> result.complete(Optional.empty()), Math.min(delay, left), false);
        return subscribed;
    }

    /**
     * The loop's subscriptions are in place: a release that came after the nodes refused it and before then was not
     * heard, so it tries again as after a release (as Redisson tries again once it has subscribed).
     */
    private void listening() {
        released(false);
    }

    @Override
    public void released(boolean cleanup) {
        synchronized (this) {
            if (result.isDone()) {
                return;
            }
            if (attempting) {
                releasedMeanwhile |= !cleanup;
                cleanedUpMeanwhile |= cleanup;
                return;
            }
            if (jittering || (cleanup && heldByOther && ticket == 0) || pending == null || !pending.cancel(false)) {
                return;
            }
            long jitter = jitterAfter(cleanup);
            if (jitter >= INLINE_BELOW_NANOS) {
                schedule(this::retry, jitter, true);
                return;
            }
            pending = null;
        }
        retry(); // on the I/O thread that saw the release: no hand-off to another thread
    }

    /** Caller holds the monitor. */
    private void schedule(Runnable task, long delayNanos, boolean afterRelease) {
        jittering = afterRelease;
        try {
            pending = parts.nodes().scheduler().schedule(task, delayNanos);
        } catch (RuntimeException closing) {
            result.completeExceptionally(Lifecycle.closedException());
        }
    }

    /** Caller holds the monitor. The pause after a release or a clean-up: see {@link Backoff#afterRelease}. */
    private long jitterAfter(boolean cleanup) {
        return backoff.afterRelease(cleanup, ticket > 0, parts.random());
    }

    /** Another round, unless the wait ran out meanwhile (a timer may fire late): no round starts after it. */
    private void retry() {
        if (deadline.passed()) {
            result.complete(Optional.empty());
            return;
        }
        attempt();
    }

    private void stop(boolean acquired) {
        if (waiterId != null && !acquired) {
            parts.queue().leave(queue, waiterId); // an acquisition that won left the queue where it was granted
        }
        List<ReleaseNotifier.Subscription> subscriptions;
        synchronized (this) {
            subscriptions = events;
            events = null;
            if (pending != null) {
                pending.cancel(false);
            }
        }
        if (subscriptions != null) {
            subscriptions.forEach(ReleaseNotifier.Subscription::close);
        }
    }
}
