package io.redlock;

import io.redlock.internal.protocol.Keys;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

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

    /**
     * The leases that hold the resource together on a majority, in the order the nodes list them: the readers of a
     * read lock, or the permit holders of a semaphore; empty for any other lock.
     */
    public List<String> sharedBy() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (NodeStatus node : nodes) {
            node.sharedBy().forEach(value -> counts.merge(value, 1, Integer::sum));
        }
        return counts.entrySet().stream().filter(e -> e.getValue() >= quorum).map(Map.Entry::getKey).toList();
    }

    /** True if a majority holds the readers' mark ({@link Keys#READ_MARK}): the resource is read-locked. */
    public boolean readLocked() {
        return holder().filter(Keys.READ_MARK::equals).isPresent();
    }

    /** The permits of the semaphore whose mark ({@link Keys#PERMITS_MARK}) a majority holds, if one does. */
    public OptionalInt permits() {
        return holder().filter(mark -> mark.startsWith(Keys.PERMITS_MARK))
                .map(mark -> OptionalInt.of(Integer.parseInt(mark.substring(Keys.PERMITS_MARK.length()))))
                .orElse(OptionalInt.empty());
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
