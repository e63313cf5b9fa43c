package io.redlock.internal.node;

import io.redlock.NodeFailure;
import io.redlock.RedlockClosedException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * Collects the replies of one command sent to every node at once, until the outcome is certain or the per-node
 * timeout passes — never longer (SPEC R3). In quorum mode it decides as soon as a majority granted or a majority has
 * become impossible; in wait mode it completes when every required node answered and every other node answered or
 * its earlier deadline passed. The commands are already dispatched when a round starts.
 */
final class Round<R> implements TalliedReply.Listener<R> {

    private final NodeSet nodes;
    private final Predicate<R> granted;
    private final boolean[] required;
    private final QuorumTally tally;
    private final Object[] replies;
    /** Per node its failure; null until a node fails (most rounds see none). */
    private NodeFailure[] failures;
    private final boolean[] answered;
    private final CompletableFuture<RoundResult<R>> result = new CompletableFuture<>();
    /** The replies, in node order, set when the round starts. */
    private List<? extends CompletionStage<R>> sent;

    private int requiredLeft;
    private int othersLeft;
    private boolean othersExpired;
    private boolean starting = true;
    private boolean timedOut;
    private boolean finished;
    private Future<?> timer;
    private Future<?> othersTimer;

    private Round(NodeSet nodes, Predicate<R> granted, boolean[] required) {
        int n = nodes.size();
        this.nodes = nodes;
        this.granted = granted;
        this.required = required;
        this.tally = new QuorumTally(n);
        this.replies = new Object[n];
        this.answered = new boolean[n];
        if (required != null) {
            for (boolean r : required) {
                requiredLeft += r ? 1 : 0;
            }
            othersLeft = n - requiredLeft;
        }
    }

    /** Decides as soon as a majority granted or cannot grant any more, or at the timeout. */
    static <R> CompletableFuture<RoundResult<R>> quorum(NodeSet nodes, List<? extends CompletionStage<R>> replies,
            Predicate<R> granted) {
        return new Round<>(nodes, granted, null).start(replies, 0);
    }

    /** Completes when every node answered, or at the timeout. */
    static <R> CompletableFuture<RoundResult<R>> all(NodeSet nodes, List<? extends CompletionStage<R>> replies,
            Predicate<R> granted) {
        boolean[] required = new boolean[nodes.size()];
        Arrays.fill(required, true);
        return new Round<>(nodes, granted, required).start(replies, 0);
    }

    /**
     * Completes when every node marked in {@code required} answered (or at the timeout), waiting for the other nodes
     * only until the ticker reaches {@code othersDeadline}.
     */
    static <R> CompletableFuture<RoundResult<R>> required(NodeSet nodes, List<? extends CompletionStage<R>> replies,
            Predicate<R> granted, boolean[] required, long othersDeadline) {
        return new Round<>(nodes, granted, required.clone())
                .start(replies, othersDeadline - nodes.ticker().read());
    }

    private CompletableFuture<RoundResult<R>> start(List<? extends CompletionStage<R>> replies,
            long othersWaitNanos) {
        sent = replies;
        Future<?> t;
        Future<?> o = null;
        try {
            t = nodes.deadline(this::onTimeout, nodes.nodeTimeoutNanos());
            if (required != null && othersLeft > 0 && othersWaitNanos > 0) {
                o = nodes.deadline(this::onOthersDeadline, othersWaitNanos);
            }
        } catch (RejectedExecutionException closing) {
            result.completeExceptionally(new RedlockClosedException());
            return result;
        }
        synchronized (this) {
            timer = t;
            othersTimer = o;
            othersExpired = required != null && othersLeft > 0 && othersWaitNanos <= 0;
        }
        for (int i = 0; i < replies.size(); i++) {
            CompletionStage<R> reply = replies.get(i);
            if (!(reply instanceof TalliedReply<R> direct && direct.listen(this))) {
                reply.whenComplete(new Answer(i)); // a derived or ready-made stage, or one another round hears
            }
        }
        settle(() -> starting = false);
        return result;
    }

    /** A reply heard directly: the node whose reply it is. */
    @Override
    public void heard(TalliedReply<? extends R> reply, R value, Throwable failure) {
        for (int i = 0; i < sent.size(); i++) {
            if (sent.get(i) == reply) {
                settled(i, value, failure);
                return;
            }
        }
    }

    /** One node's reply, recorded when it comes. */
    private void settled(int node, R reply, Throwable failure) {
        RoundResult<R> outcome;
        synchronized (this) {
            record(node, reply, failure);
            outcome = decideIfReady();
        }
        publish(outcome);
    }

    /** A reply this round cannot hear directly ({@link TalliedReply#listen}), as its dependent stage. */
    private final class Answer implements BiConsumer<R, Throwable> {
        private final int node;

        Answer(int node) {
            this.node = node;
        }

        @Override
        public void accept(R reply, Throwable failure) {
            settled(node, reply, failure);
        }
    }

    /**
     * Caller holds the monitor. A failure that comes after the decision (a node that went down while the others
     * decided) no longer counts, but is still reported, once, so the node's failure is never missed.
     */
    private void record(int node, R reply, Throwable failure) {
        if (answered[node]) {
            return;
        }
        if (finished) {
            if (failure != null && (failures == null || failures[node] == null)) {
                failed(node, Failures.of(nodes.get(node).name(), failure, nodes.redaction()));
            }
            return;
        }
        answered[node] = true;
        if (failure != null) {
            failed(node, Failures.of(nodes.get(node).name(), failure, nodes.redaction()));
            tally.fail();
        } else {
            replies[node] = reply;
            if (granted.test(reply)) {
                tally.grant();
            } else {
                tally.refuse();
            }
        }
        if (required != null) {
            if (required[node]) {
                requiredLeft--;
            } else {
                othersLeft--;
            }
        }
    }

    /** Caller holds the monitor. Records and reports node {@code node}'s failure. */
    private void failed(int node, NodeFailure failure) {
        if (failures == null) {
            failures = new NodeFailure[answered.length];
        }
        failures[node] = failure;
        nodes.nodeFailed(failure);
    }

    private void onOthersDeadline() {
        settle(() -> othersExpired = true);
    }

    private void onTimeout() {
        settle(() -> timedOut = true);
    }

    /** Applies {@code change} under the monitor, then publishes the outcome if that made it final. */
    private void settle(Runnable change) {
        RoundResult<R> outcome;
        synchronized (this) {
            change.run();
            outcome = decideIfReady();
        }
        publish(outcome);
    }

    /** Caller holds the monitor. Returns the outcome once, when it is final. */
    private RoundResult<R> decideIfReady() {
        if (finished || starting) {
            return null;
        }
        boolean decided = required != null ? requiredLeft == 0 && (othersLeft == 0 || othersExpired)
                : tally.decision() != QuorumTally.Decision.PENDING;
        if (!decided && !timedOut) {
            return null;
        }
        if (!decided) {
            for (int i = 0; i < answered.length; i++) {
                if (!answered[i]) {
                    failed(i, Failures.timeout(nodes.get(i).name(), nodes.nodeTimeoutNanos()));
                    tally.fail();
                }
            }
        }
        finished = true;
        return new RoundResult<>(tally.finalDecision() == QuorumTally.Decision.WON, nodes.ticker().read(),
                replies, failures == null ? null : failures.clone(), answered, tally.failuresPreventQuorum(),
                tally.refusalsPreventQuorum(), tally.granted());
    }

    /** Completes the result outside the monitor: continuations may start the next round. */
    private void publish(RoundResult<R> outcome) {
        if (outcome == null) {
            return;
        }
        Future<?> t;
        Future<?> o;
        synchronized (this) {
            t = timer;
            o = othersTimer;
        }
        if (t != null) {
            t.cancel(false);
        }
        if (o != null) {
            o.cancel(false);
        }
        result.complete(outcome);
    }
}
