package io.redlock.cli;

import io.redlock.NodeFailure;
import io.redlock.RedlockObserver;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers how the command's acquisition ended and, per node, why it last failed: enough to tell "held by another
 * client" (73) from "no quorum" (69) without asking the nodes again.
 */
final class AcquireOutcome implements RedlockObserver {

    private volatile AcquireResult result;
    private final Map<String, NodeFailure> failures = new ConcurrentHashMap<>();

    @Override
    public void acquisition(String resource, AcquireResult result, Duration took) {
        this.result = result;
    }

    @Override
    public void nodeFailed(NodeFailure failure) {
        failures.put(failure.node(), failure);
    }

    /** True if the last round could not reach a majority because of node failures (not contention). */
    boolean noQuorum() {
        return result == AcquireResult.ERROR;
    }

    /** The latest failure of each node that failed, e.g. {@code 127.0.0.1:6379 UNAVAILABLE: READONLY ...}. */
    Map<String, NodeFailure> failures() {
        return Map.copyOf(failures);
    }
}
