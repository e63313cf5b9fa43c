package io.redlock.testkit.history;

import java.util.List;
import java.util.function.Predicate;

/**
 * Safety checkers for a recorded lock history; each returns a {@link CheckResult} and never throws on a bad history.
 *
 * <p>All checkers take any list of {@link Event}s (normally {@link History#events()}) in any order, and compare
 * timestamps from one monotonic clock.
 */
public final class Checkers {

    private Checkers() {
    }

    /**
     * (1) Mutual exclusion: no two leases held at once.
     *
     * <p>Every lease {@code L} with an {@link Op#ACQUIRE} event whose outcome is {@link Outcome#OK} is a holder (the
     * earliest-completing one if there are several); leases whose ACQUIRE failed or is unknown, and events without a
     * lease, are not. {@code start(L)} is that ACQUIRE's completedAt. {@code end(L)} depends on {@code mode}:
     * <ul>
     *   <li>{@link HoldMode#VALIDITY}: the largest validUntil among L's OK ACQUIRE/EXTEND events, but no later than
     *       the invokedAt of L's first {@link Op#RELEASE} (any outcome), if any.</li>
     *   <li>{@link HoldMode#CRITICAL_SECTION}: the invokedAt of L's first RELEASE if there is one; otherwise the
     *       largest completedAt (ignoring {@link Long#MAX_VALUE}) of any READ/WRITE/EXTEND event of L, or
     *       {@code start(L)} if there is none.</li>
     * </ul>
     * Two different leases {@code a} and {@code b} overlap when {@code a.start < b.end && b.start < a.end}; a lease
     * whose {@code end <= start} held nothing and overlaps nothing. Each overlapping pair is reported once, with both
     * ACQUIRE events (earlier start first) and a description naming both leases, processes, tokens and the overlap
     * in milliseconds.
     */
    public static CheckResult mutualExclusion(List<Event> history, HoldMode mode) {
        return MutualExclusion.check(history, mode);
    }

    /**
     * (1') Holders of several kinds at once, for locks with shared holders (read-write locks, semaphores): holds as in
     * {@link #mutualExclusion}, where a hold whose ACQUIRE event {@code shared} accepts is shared and any other is
     * exclusive. Reported: every overlapping pair of which at least one is exclusive (as by {@code mutualExclusion});
     * and every moment more than {@code sharedAtOnce} shared holds overlap (once, at the start of the shared hold
     * that makes one too many, naming them all). The summary says how many shared holds were held at once at most.
     * With nothing shared it is {@code mutualExclusion}.
     */
    public static CheckResult holdersAtOnce(List<Event> history, HoldMode mode, Predicate<Event> shared,
            int sharedAtOnce) {
        return MutualExclusion.check(history, mode, shared, sharedAtOnce);
    }

    /** What counts as holding a lease, for {@link #mutualExclusion} and {@link #holdersAtOnce}. */
    public enum HoldMode {
        /** From the ACQUIRE's completion until its validity deadline (cut short by a release): what the lock promised. */
        VALIDITY,
        /** From the ACQUIRE's completion until the release or last use: what the application did believing it held it. */
        CRITICAL_SECTION
    }

    /**
     * (2) Token order at the storage: accepted tokens never go down, and one token is never accepted from two leases.
     *
     * <p>Only {@link Op#WRITE} events with outcome {@link Outcome#OK} (accepted by the storage) and a token
     * {@code >= 0} are considered.
     * <ul>
     *   <li>"token went down": write A completed before write B was invoked ({@code A.completedAt < B.invokedAt}) and
     *       {@code B.token < A.token}. For each such B one violation is reported, against the write with the largest
     *       token among those completed before B was invoked. Writes whose intervals overlap in time are concurrent
     *       and impose no order. Runs in O(n log n).</li>
     *   <li>"token accepted from two leases": two accepted writes carry the same token but different lease values;
     *       reported once per pair of distinct leases, with each lease's first write.</li>
     * </ul>
     */
    public static CheckResult tokenOrder(List<Event> history) {
        return TokenOrder.check(history);
    }

    /**
     * (3) No acknowledged fenced increment is lost.
     *
     * <p>{@code acknowledged} is the number of {@link Op#WRITE} events with outcome {@link Outcome#OK} and a non-null
     * value (each is one increment); {@code maybeApplied} is the number of WRITE events with outcome
     * {@link Outcome#UNKNOWN} (including pending ones). The history is valid iff
     * {@code acknowledged <= finalCounter <= acknowledged + maybeApplied}. A violation ("lost N acknowledged
     * increments" or "counter is above every write that may have been applied") gives the three numbers and carries no
     * events, since the evidence is a count.
     *
     * @param finalCounter the counter's value read from the storage after the run
     */
    public static CheckResult noLostIncrements(List<Event> history, long finalCounter) {
        return LostIncrements.check(history, finalCounter);
    }

    /**
     * All three, for a report: {@link #mutualExclusion} in {@link HoldMode#VALIDITY} mode, {@link #tokenOrder} and
     * {@link #noLostIncrements}, in that order.
     */
    public static List<CheckResult> all(List<Event> history, long finalCounter) {
        return List.of(mutualExclusion(history, HoldMode.VALIDITY), tokenOrder(history),
                noLostIncrements(history, finalCounter));
    }
}
