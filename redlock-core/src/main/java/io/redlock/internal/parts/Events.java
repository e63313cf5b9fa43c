package io.redlock.internal.parts;

import io.redlock.Lease;
import io.redlock.LockTarget;
import io.redlock.LossReason;
import io.redlock.NodeFailure;
import io.redlock.RedlockObserver;
import io.redlock.internal.node.NodeSet;
import io.redlock.internal.node.NodeStates;
import io.redlock.internal.node.RoundResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a client tells the outside: the {@link RedlockObserver}s added to it (acquisitions, holds, extensions, node
 * failures, losses), and the log of nodes entering and leaving a passing state ({@link NodeStates}). An observer that
 * throws is logged and never disturbs the caller. Runs on whatever
 * thread reports the event: a Lettuce I/O thread, the scheduler, or a caller.
 */
public final class Events {

    private static final Logger log = LoggerFactory.getLogger(Events.class);

    private final NodeStates nodeStates = new NodeStates();
    /** The observers in the order they were added. */
    private final List<RedlockObserver> observers = new CopyOnWriteArrayList<>();
    /** Whether an added observer overrides {@link RedlockObserver#leaseLost}: then every lease is watched. */
    private volatile boolean hearingLosses;

    /** From now on {@code observer} hears every event too (leases granted from now on are watched for losses). */
    public void add(RedlockObserver observer) {
        observers.add(Objects.requireNonNull(observer, "observer"));
        if (hearsLosses(observer)) {
            hearingLosses = true;
        }
    }

    /** Whether {@code observer}'s class overrides {@link RedlockObserver#leaseLost} rather than inherit the no-op. */
    static boolean hearsLosses(RedlockObserver observer) {
        try {
            return observer.getClass().getMethod("leaseLost", Lease.class, LossReason.class).getDeclaringClass()
                    != RedlockObserver.class;
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException("RedlockObserver without leaseLost", e);
        }
    }

    /** Hands {@code event} to every observer. */
    public void observe(Consumer<RedlockObserver> event) {
        for (RedlockObserver observer : observers) {
            try {
                event.accept(observer);
            } catch (RuntimeException e) {
                failed(e);
            }
        }
    }

    /** Every observer's scope of an acquisition call of {@code resource}, a lock of {@code kind}, that starts now. */
    public RedlockObserver.Acquisition acquisitionStarted(String resource, LockTarget.Kind kind) {
        List<RedlockObserver.Acquisition> started = started(o -> o.acquisitionStarted(resource, kind),
                RedlockObserver.Acquisition.NONE);
        if (started.isEmpty()) {
            return RedlockObserver.Acquisition.NONE;
        }
        return (result, failure) -> started.forEach(scope -> safely(() -> scope.ended(result, failure)));
    }

    /** Every observer's scope of the hold of {@code lease}, kept alive from now on, as one. */
    public RedlockObserver.Hold holdStarted(Lease lease) {
        List<RedlockObserver.Hold> started = started(o -> o.holdStarted(lease), RedlockObserver.Hold.NONE);
        if (started.isEmpty()) {
            return RedlockObserver.Hold.NONE;
        }
        return lost -> started.forEach(scope -> safely(() -> scope.ended(lost)));
    }

    /** What each observer returned on a start, but the ones with nothing to end (no allocation if none). */
    private <S> List<S> started(Function<RedlockObserver, S> start, S none) {
        List<S> started = List.of();
        for (RedlockObserver observer : observers) {
            try {
                S scope = start.apply(observer);
                if (scope != null && scope != none) {
                    if (started.isEmpty()) {
                        started = new ArrayList<>(1);
                    }
                    started.add(scope);
                }
            } catch (RuntimeException e) {
                failed(e);
            }
        }
        return started;
    }

    private static void safely(Runnable end) {
        try {
            end.run();
        } catch (RuntimeException e) {
            failed(e);
        }
    }

    private static void failed(RuntimeException e) {
        log.warn("a RedlockObserver failed: {}", e.toString(), e);
    }

    /** A node failed or timed out in a round. */
    void nodeFailed(NodeFailure failure) {
        nodeStates.failed(failure);
        observe(o -> o.nodeFailed(failure));
    }

    /** An acquisition round was decided: the nodes that voted in it are past any state they were in. */
    public void voted(RoundResult<?> round, NodeSet nodes) {
        for (int i = 0; i < nodes.size(); i++) {
            if (round.voted(i)) {
                nodeStates.answered(nodes.get(i).name());
            }
        }
    }

    /** Whether an observer wants to hear of losses: then every lease is watched. */
    public boolean listening() {
        return hearingLosses;
    }

    /** Tells the observers that a lease was lost. */
    public void lost(Lease lease, LossReason reason) {
        if (hearingLosses) {
            observe(o -> o.leaseLost(lease, reason));
        }
    }
}
