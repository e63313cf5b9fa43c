package io.redlock;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What one node says about itself, for {@link Redlock#inspect()}: the settings that decide which guarantees hold.
 * Fields a node would not tell (down, or {@code CONFIG} disabled) are empty.
 *
 * @param node            {@code host:port}
 * @param problem         why the node could not be inspected, if it could not
 * @param version         {@code redis_version}
 * @param role            {@code master} or {@code slave}
 * @param runId           the server's {@code run_id}: equal for two entries that are the same server
 * @param clusterEnabled  whether the node runs in cluster mode
 * @param maxmemoryPolicy {@code maxmemory-policy}
 * @param appendOnly      whether AOF persistence is on
 * @param appendFsync     {@code appendfsync}: {@code always}, {@code everysec} or {@code no}
 * @param cluster         for a member that is a Redis Cluster, its masters and slot coverage; the other fields are
 *                        then those of the master that answered first, and the checks below look at every master
 */
public record NodeReport(String node, Optional<String> problem, Optional<String> version, Optional<String> role,
        Optional<String> runId, Optional<Boolean> clusterEnabled, Optional<String> maxmemoryPolicy,
        Optional<Boolean> appendOnly, Optional<String> appendFsync, Optional<ClusterReport> cluster) {

    /** A node that is one server (not a Redis Cluster member). */
    public NodeReport(String node, Optional<String> problem, Optional<String> version, Optional<String> role,
            Optional<String> runId, Optional<Boolean> clusterEnabled, Optional<String> maxmemoryPolicy,
            Optional<Boolean> appendOnly, Optional<String> appendFsync) {
        this(node, problem, version, role, runId, clusterEnabled, maxmemoryPolicy, appendOnly, appendFsync,
                Optional.empty());
    }

    /** A node that could not be inspected. */
    public static NodeReport unreachable(String node, String problem) {
        return new NodeReport(node, Optional.of(problem), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** A member that is a Redis Cluster, from its masters' reports. */
    public static NodeReport ofCluster(String node, ClusterReport cluster) {
        NodeReport first = cluster.masters().isEmpty() ? unreachable(node, "no master") : cluster.masters().get(0);
        return new NodeReport(node, Optional.empty(), first.version(), Optional.of("master"), Optional.empty(),
                Optional.of(true), first.maxmemoryPolicy(), first.appendOnly(), first.appendFsync(),
                Optional.of(cluster));
    }

    /** The servers behind this entry: a cluster's masters, else this node itself. */
    public List<NodeReport> servers() {
        return cluster.map(ClusterReport::masters).orElse(List.of(this));
    }

    public boolean reachable() {
        return problem.isEmpty();
    }

    /** True if the node is a master (a replica must not be a Redlock node); for a cluster, every master is. */
    public boolean isMaster() {
        return cluster.isPresent() ? servers().stream().allMatch(NodeReport::isMaster)
                : role.map("master"::equals).orElse(false);
    }

    /** True if every write is fsynced before it is acknowledged (on every master): keys and counters survive a crash. */
    public boolean durable() {
        return cluster.isPresent() ? servers().stream().allMatch(NodeReport::durable)
                : appendOnly.orElse(false) && appendFsync.map(s -> s.equalsIgnoreCase("always")).orElse(false);
    }

    /** True if memory pressure can evict keys with a TTL (on some master): lock keys, so two could hold a lock. */
    public boolean mayEvictLocks() {
        return cluster.isPresent() ? servers().stream().anyMatch(NodeReport::mayEvictLocks)
                : maxmemoryPolicy.map(p -> !p.equalsIgnoreCase("noeviction")).orElse(false);
    }

    /** True if memory pressure can evict keys without a TTL (on some master): counters, so tokens could go back. */
    public boolean mayEvictCounters() {
        return cluster.isPresent() ? servers().stream().anyMatch(NodeReport::mayEvictCounters)
                : maxmemoryPolicy.map(p -> p.toLowerCase(Locale.ROOT).startsWith("allkeys-")).orElse(false);
    }
}
