package io.redlock;

import java.util.List;

/**
 * What a quorum member that is a Redis Cluster says about itself, for {@link Redlock#inspect()}: its masters (each
 * inspected as a node), how many replicas it has, and how many of the {@value #SLOTS} slots its masters cover.
 *
 * @param masters  one report per master, named {@code host:port}
 * @param replicas how many replicas the cluster knows
 * @param covered  slots assigned to a master; fewer than {@value #SLOTS} leave some locks without this member's vote
 * @param state    {@code cluster_state} as the member's node answered it: {@code ok} or {@code fail}
 */
public record ClusterReport(List<NodeReport> masters, int replicas, int covered, String state) {

    /** The slots of every Redis Cluster. */
    public static final int SLOTS = 16_384;

    public ClusterReport {
        masters = List.copyOf(masters);
    }

    /** True if every slot has a master and the cluster says it is ok. */
    public boolean complete() {
        return covered == SLOTS && "ok".equals(state);
    }
}
