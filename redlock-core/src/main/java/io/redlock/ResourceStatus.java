package io.redlock;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The state of one resource on every node, from {@link Redlock#status(String)}, and what it adds up to.
 *
 * @param resource the resource
 * @param quorum   the majority of the configured nodes ({@link RedlockConfig#quorum()})
 * @param nodes    one status per configured node, in order
 */
public record ResourceStatus(String resource, int quorum, List<NodeStatus> nodes) {

    /** What the nodes add up to. */
    public enum Verdict {
        /** A majority holds no lock for the resource: an acquisition can succeed now. */
        FREE,
        /** One value holds the lock on a majority: {@link #holder()}. */
        HELD,
        /** Neither: the nodes that answered disagree, no value holds a majority and no majority is free. */
        SPLIT,
        /** Fewer than a majority answered. */
        UNKNOWN
    }

    public ResourceStatus {
        Objects.requireNonNull(resource, "resource");
        nodes = List.copyOf(nodes);
    }

    /** How many nodes answered. */
    public int answered() {
        return (int) nodes.stream().filter(NodeStatus::answered).count();
    }

    /** The value that holds the lock on a majority, if one does. */
    public Optional<String> holder() {
        Map<String, Integer> counts = new HashMap<>();
        for (NodeStatus node : nodes) {
            node.holder().ifPresent(value -> counts.merge(value, 1, Integer::sum));
        }
        return counts.entrySet().stream().filter(e -> e.getValue() >= quorum).map(Map.Entry::getKey).findFirst();
    }

    /** What the nodes add up to; see {@link Verdict}. */
    public Verdict verdict() {
        if (answered() < quorum) {
            return Verdict.UNKNOWN;
        }
        if (holder().isPresent()) {
            return Verdict.HELD;
        }
        long free = nodes.stream().filter(n -> n.answered() && n.holder().isEmpty()).count();
        return free >= quorum ? Verdict.FREE : Verdict.SPLIT;
    }
}
