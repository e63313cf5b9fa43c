package io.redlock.internal.node;

import io.redlock.NodeFailure;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the log about nodes in a state that passes (out of memory, read-only, loading…): one WARN when a node enters
 * a state, naming it by {@code host:port} and the state's code, and one INFO when it answers normally again. Meanwhile
 * the node simply has no vote. Thread-safe.
 */
public final class NodeStates {

    private static final Logger log = LoggerFactory.getLogger(NodeStates.class);

    private final Map<String, String> current = new ConcurrentHashMap<>();

    /** A node failed in a round; true if it just entered a state that passes (and that was logged). */
    public boolean failed(NodeFailure failure) {
        if (failure.kind() != NodeFailure.Kind.UNAVAILABLE) {
            return false;
        }
        String state = Failures.state(failure.reason()).orElse(null);
        if (state == null || state.equals(current.put(failure.node(), state))) {
            return false;
        }
        log.warn("{}: {}: the node has no vote until this passes; acquisitions wait for the others", failure.node(),
                state);
        return true;
    }

    /** A node answered a round normally; true if it was in a state until now (and that was logged). */
    public boolean answered(String node) {
        if (current.isEmpty() || current.remove(node) == null) {
            return false;
        }
        log.info("{}: answers normally again", node);
        return true;
    }
}
