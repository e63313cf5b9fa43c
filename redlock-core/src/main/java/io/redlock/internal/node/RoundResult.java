package io.redlock.internal.node;

import io.redlock.NodeFailure;
import java.util.ArrayList;
import java.util.List;

/**
 * What one round learned: the decision, when it was taken (ticker reading), and per node the reply, the failure, or
 * nothing (still pending when the round decided). Holds the round's own arrays of replies and answers, which the round
 * no longer writes once it decided; its failures are a copy (a failure after the decision is still reported).
 */
public final class RoundResult<R> {

    private final boolean won;
    private final long decidedAt;
    private final Object[] replies;
    /** Per node its failure; null if none failed. */
    private final NodeFailure[] failures;
    private final boolean[] answered;
    private final boolean failuresPreventQuorum;
    private final boolean refusalsPreventQuorum;
    private final int granted;

    RoundResult(boolean won, long decidedAt, Object[] replies, NodeFailure[] failures, boolean[] answered,
            boolean failuresPreventQuorum, boolean refusalsPreventQuorum, int granted) {
        this.refusalsPreventQuorum = refusalsPreventQuorum;
        this.granted = granted;
        this.won = won;
        this.decidedAt = decidedAt;
        this.replies = replies;
        this.failures = failures;
        this.answered = answered;
        this.failuresPreventQuorum = failuresPreventQuorum;
    }

    /** True if node {@code i} answered with a reply (granted or refused), not a failure. */
    public boolean voted(int i) {
        return answered[i] && (failures == null || failures[i] == null);
    }

    /** How many nodes granted before the round decided. */
    public int granted() {
        return granted;
    }

    /** True if a majority granted. */
    public boolean won() {
        return won;
    }

    /** Ticker reading when the round decided. */
    public long decidedAt() {
        return decidedAt;
    }

    /** The reply of node {@code i}, or null if it failed or had not answered when the round decided. */
    @SuppressWarnings("unchecked")
    public R reply(int i) {
        return (R) replies[i];
    }

    /** True if node {@code i} answered (with a reply or an error) before the round decided. */
    public boolean answered(int i) {
        return answered[i];
    }

    public boolean[] answered() {
        return answered.clone();
    }

    /** The failed and timed-out nodes, in node order. */
    public List<NodeFailure> failures() {
        if (failures == null) {
            return List.of();
        }
        List<NodeFailure> list = new ArrayList<>();
        for (NodeFailure failure : failures) {
            if (failure != null) {
                list.add(failure);
            }
        }
        return list;
    }

    /** True if the refusals alone made a majority impossible: a majority answered "not yours". */
    public boolean refusalsPreventQuorum() {
        return refusalsPreventQuorum;
    }

    /** True if the failures alone made a majority impossible, whatever the other nodes answered. */
    public boolean failuresPreventQuorum() {
        return failuresPreventQuorum;
    }
}
