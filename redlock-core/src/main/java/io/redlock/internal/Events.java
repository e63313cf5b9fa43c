package io.redlock.internal;

import io.redlock.LossReason;
import io.redlock.NodeFailure;
import io.redlock.RedlockConfig;
import io.redlock.RedlockObserver;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the engine tells the outside: the configured {@link RedlockObserver} (acquisitions, extensions, node failures),
 * the global {@link io.redlock.LeaseListener} (losses), and the log of nodes entering and leaving a passing state
 * ({@link NodeStates}). A listener or observer that throws is logged and never disturbs the caller. Runs on whatever
 * thread reports the event: a Lettuce I/O thread, the scheduler, or a caller.
 */
final class Events {

    private static final Logger log = LoggerFactory.getLogger(Events.class);

    private final RedlockConfig config;
    private final NodeStates nodeStates = new NodeStates();

    Events(RedlockConfig config) {
        this.config = config;
    }

    /** Hands {@code event} to the observer, if one is configured. */
    void observe(Consumer<RedlockObserver> event) {
        RedlockObserver observer = config.observer().orElse(null);
        if (observer == null) {
            return;
        }
        try {
            event.accept(observer);
        } catch (RuntimeException e) {
            log.warn("a RedlockObserver failed: {}", e.toString(), e);
        }
    }

    /** A node failed or timed out in a round. */
    void nodeFailed(NodeFailure failure) {
        nodeStates.failed(failure);
        observe(o -> o.nodeFailed(failure));
    }

    /** An acquisition round was decided: the nodes that voted in it are past any state they were in. */
    void voted(RoundResult<?> round, NodeSet nodes) {
        for (int i = 0; i < nodes.size(); i++) {
            if (round.voted(i)) {
                nodeStates.answered(nodes.get(i).name());
            }
        }
    }

    /** Whether a global listener wants to hear of losses: then every lease is watched. */
    boolean listening() {
        return config.leaseListener().isPresent();
    }

    /** Tells the global listener, if any, that a lease was lost. */
    void lost(RedlockLease lease, LossReason reason) {
        config.leaseListener().ifPresent(listener -> Listeners.notify(listener, lease, reason));
    }

    /**
     * For a holder about to release: the loss of the lease, if it was lost or its validity ran out before the
     * watchdog noticed (then the listeners are told now).
     */
    Optional<LossReason> settleBeforeRelease(RedlockLease lease) {
        Optional<LossReason> lost = lease.lossBeforeRelease();
        if (lost.isPresent() && lease.takePendingTell()) {
            log.warn("lost the lock on '{}': {}", lease.resource(), lost.get().description());
            lease.tellListeners(lost.get());
            lost(lease, lost.get());
        }
        return lost;
    }
}
