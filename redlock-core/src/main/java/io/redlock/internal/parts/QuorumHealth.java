package io.redlock.internal.parts;

import io.redlock.Lease;
import io.redlock.NodeFailure;
import io.redlock.QuorumUnreachableException;
import io.redlock.RedlockConfig;
import io.redlock.internal.node.RoundResult;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a lost round into its result: {@code Optional.empty()} for contention and transient node trouble (with one
 * WARN when a majority stops answering and one INFO when it is back), {@link QuorumUnreachableException} when errors
 * that retrying cannot fix leave no majority.
 */
public final class QuorumHealth {

    private static final Logger log = LoggerFactory.getLogger(QuorumHealth.class);

    private final int nodes;
    private final int quorum;
    private final AtomicBoolean lost = new AtomicBoolean();

    QuorumHealth(int nodes) {
        this.nodes = nodes;
        this.quorum = RedlockConfig.quorumOf(nodes);
    }

    /** A round reached a majority. */
    public void restored() {
        if (lost.compareAndSet(true, false)) {
            log.info("quorum is back: a majority of the {} nodes answers again", nodes);
        }
    }

    /** The result of a round that did not produce a lease. */
    public Optional<Lease> notAcquired(String resource, RoundResult<?> round) {
        List<NodeFailure> failures = round.failures();
        if (round.failuresPreventQuorum()) {
            String message = "no quorum for '" + resource + "': " + failures.size() + " of " + nodes
                    + " nodes failed (need " + quorum + "): " + failures;
            if (failures.stream().anyMatch(f -> f.kind() == NodeFailure.Kind.ERROR)) {
                throw new QuorumUnreachableException(message, failures);
            }
            if (lost.compareAndSet(false, true)) {
                log.warn("{}; acquisitions fail until the nodes are back", message);
            } else {
                log.debug(message);
            }
        } else if (!failures.isEmpty() && log.isDebugEnabled()) {
            log.debug("{}: not acquired; node failures: {}", resource, failures);
        }
        return Optional.empty();
    }
}
