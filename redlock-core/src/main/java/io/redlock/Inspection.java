package io.redlock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of {@link Redlock#inspect()}: one report per node, which fencing guarantee the configuration gives, and
 * plain-English warnings for every setting that weakens a guarantee.
 *
 * @param nodes      one report per configured node, in order
 * @param fencing    whether leases carry fencing tokens
 * @param clockFloor whether the clock floor protects counters across restarts
 */
public record Inspection(List<NodeReport> nodes, boolean fencing, boolean clockFloor) {

    /** How far fencing tokens can be trusted across node restarts and memory pressure. */
    public enum TokenGuarantee {
        /** Fencing is off: leases carry no tokens. */
        NOT_FENCED,
        /** Every node fsyncs every write (AOF, appendfsync always) and evicts no counter: tokens never go back. */
        DURABLE_COUNTERS,
        /** The clock floor lifts a restarted node's counter above earlier tokens (downtime > 2 s + 2 × clock error). */
        CLOCK_FLOOR,
        /** A node that restarts without its data, or evicts a counter, can hand out a smaller token. */
        LOST_ON_RESTART,
        /** Some node could not be inspected. */
        UNKNOWN
    }

    public Inspection {
        nodes = List.copyOf(nodes);
    }

    /** The token guarantee this configuration gives. */
    public TokenGuarantee tokenGuarantee() {
        if (!fencing) {
            return TokenGuarantee.NOT_FENCED;
        }
        if (nodes.stream().anyMatch(n -> !n.reachable())) {
            return TokenGuarantee.UNKNOWN;
        }
        if (nodes.stream().anyMatch(NodeReport::mayEvictCounters)) {
            return TokenGuarantee.LOST_ON_RESTART;
        }
        if (nodes.stream().allMatch(NodeReport::durable)) {
            return TokenGuarantee.DURABLE_COUNTERS;
        }
        return clockFloor ? TokenGuarantee.CLOCK_FLOOR : TokenGuarantee.LOST_ON_RESTART;
    }

    /**
     * Every node that is the same server as an earlier one (the same {@code run_id}, e.g. {@code localhost:6379} and
     * {@code 127.0.0.1:6379}), mapped to that earlier node, in order. Nodes that could not be inspected are not
     * compared.
     */
    public Map<String, String> duplicates() {
        Map<String, String> duplicates = new LinkedHashMap<>();
        Map<String, String> byRunId = new HashMap<>();
        for (NodeReport node : nodes) {
            for (NodeReport server : node.servers()) { // a cluster under two seeds shares its masters
                server.runId().ifPresent(id -> {
                    String earlier = byRunId.putIfAbsent(id, node.node());
                    if (earlier != null && !earlier.equals(node.node())) {
                        duplicates.putIfAbsent(node.node(), earlier);
                    }
                });
            }
        }
        return duplicates;
    }

    /** Every setting that weakens a guarantee, one sentence each. Empty when nothing does. */
    public List<String> warnings() {
        List<String> warnings = new ArrayList<>();
        Map<String, String> duplicates = duplicates();
        for (NodeReport node : nodes) {
            String name = node.node();
            if (!node.reachable()) {
                warnings.add(name + ": not reachable (" + node.problem().orElse("") + ")");
                continue;
            }
            if (!node.isMaster()) {
                warnings.add(name + ": role is " + node.role().orElse("unknown")
                        + "; Redlock needs independent masters (a failover can lose a lock, SPEC S5)");
            }
            node.cluster().filter(cluster -> !cluster.complete()).ifPresent(cluster -> warnings.add(name + ": "
                    + cluster.covered() + " of " + ClusterReport.SLOTS + " slots covered, cluster_state "
                    + cluster.state() + "; locks in the other slots get no vote from this member"));
            if (node.cluster().isEmpty() && node.clusterEnabled().orElse(false)) {
                warnings.add(name + ": cluster mode; list it as a cluster member (" + RedlockConfig.CLUSTER_PREFIX
                        + "redis://host:port) so every key of a lock shares one slot");
            }
            if (node.mayEvictCounters()) {
                warnings.add(name + ": maxmemory-policy " + node.maxmemoryPolicy().orElse("")
                        + " can evict lock keys and fencing counters; use noeviction");
            } else if (node.mayEvictLocks()) {
                warnings.add(name + ": maxmemory-policy " + node.maxmemoryPolicy().orElse("")
                        + " can evict lock keys (two holders); use noeviction");
            }
            if (!node.durable()) {
                warnings.add(name + ": not persisted with appendfsync always; after a crash keep it down longer than"
                        + " the largest TTL (delayed restart, SPEC R9)"
                        + (fencing && !clockFloor ? ", and its fencing counter restarts from zero" : ""));
            }
            String earlier = duplicates.get(name);
            if (earlier != null) {
                warnings.add(name + ": the same " + (node.cluster().isPresent() ? "cluster" : "server") + " as "
                        + earlier + " (same run_id); nodes must be independent");
            }
        }
        return warnings;
    }
}
