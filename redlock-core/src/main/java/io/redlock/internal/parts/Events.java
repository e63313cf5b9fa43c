package io.redlock.internal.parts;

import io.redlock.Lease;
import io.redlock.LeaseListener;
import io.redlock.LockTarget;
import io.redlock.LossReason;
import io.redlock.NodeFailure;
import io.redlock.RedlockConfig;
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
 * What a client tells the outside: the {@link RedlockObserver}s (acquisitions, holds, extensions, node failures), the
 * global {@link LeaseListener}s (losses), configured or added later, and the log of nodes entering and leaving a passing state
 * ({@link NodeStates}). A listener or observer that throws is logged and never disturbs the caller. Runs on whatever
 * thread reports the event: a Lettuce I/O thread, the scheduler, or a caller.
 */
public final class Events {

    private static final Logger log = LoggerFactory.getLogger(Events.class);

    private final NodeStates nodeStates = new NodeStates();
    /** The configured observer, then those added later ({@link #add(RedlockObserver)}). */
    private final List<RedlockObserver> observers = new CopyOnWriteArrayList<>();
    /** The configured lease listener, then those added later. */
    private final List<LeaseListener> listeners = new CopyOnWriteArrayList<>();

    Events(RedlockConfig config) {
        config.observer().ifPresent(observers::add);
        config.leaseListener().ifPresent(listeners::add);
    }

    /** From now on {@code observer} hears every event too. */
    public void add(RedlockObserver observer) {
        observers.add(Objects.requireNonNull(observer, "observer"));
    }

    /** From now on {@code listener} hears of every lease lost (leases granted from now on are watched for it). */
    public void add(LeaseListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
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

    /** Whether a global listener wants to hear of losses: then every lease is watched. */
    public boolean listening() {
        return !listeners.isEmpty();
    }

    /** Tells the global listeners, if any, that a lease was lost. */
    public void lost(Lease lease, LossReason reason) {
        for (LeaseListener listener : listeners) {
            Listeners.notify(listener, lease, reason);
        }
    }
}
