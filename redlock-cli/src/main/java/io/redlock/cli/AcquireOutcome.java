package io.redlock.cli;

import io.redlock.NodeFailure;
import io.redlock.RedlockObserver;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers how the command's acquisition ended and, per node, why it last failed (in an acquisition or an
 * extension): enough to tell "held by another client" (73) from "no quorum" (69) without asking the nodes again.
 * Prints the setup warnings as soon as the acquisition ended, before the caller goes on (a job then starts after
 * them).
 */
final class AcquireOutcome implements RedlockObserver {

    private volatile AcquireResult result;
    private volatile SetupWarnings warnings;
    private final Map<String, NodeFailure> failures = new ConcurrentHashMap<>();

    void warnWith(SetupWarnings warnings) {
        this.warnings = warnings;
    }

    /** The setup warnings of this command's nodes. */
    SetupWarnings warnings() {
        return warnings;
    }

    @Override
    public void acquisition(String resource, AcquireResult result, Duration took) {
        this.result = result;
        SetupWarnings pending = warnings;
        if (pending != null) {
            pending.printWhenReady();
        }
    }

    @Override
    public void nodeFailed(NodeFailure failure) {
        failures.put(failure.node(), failure);
    }

    /** True if the last round could not reach a majority because of node failures (not contention). */
    boolean noQuorum() {
        return result == AcquireResult.ERROR;
    }

    /**
     * True if so many nodes failed that no majority was possible, whatever the others answered: for an extension,
     * where the observer does not tell refused from failed.
     */
    boolean failuresPreventQuorum(int nodes, int quorum) {
        return failures.size() > nodes - quorum;
    }

    /** The latest failure of each node that failed, e.g. {@code 127.0.0.1:6379 UNAVAILABLE: READONLY ...}. */
    Map<String, NodeFailure> failures() {
        return Map.copyOf(failures);
    }
}
