package io.redlock;

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
 */
public record NodeReport(String node, Optional<String> problem, Optional<String> version, Optional<String> role,
        Optional<String> runId, Optional<Boolean> clusterEnabled, Optional<String> maxmemoryPolicy,
        Optional<Boolean> appendOnly, Optional<String> appendFsync) {

    /** A node that could not be inspected. */
    public static NodeReport unreachable(String node, String problem) {
        return new NodeReport(node, Optional.of(problem), Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());
    }

    public boolean reachable() {
        return problem.isEmpty();
    }

    /** True if the node is a master (a replica must not be a Redlock node). */
    public boolean isMaster() {
        return role.map("master"::equals).orElse(false);
    }

    /** True if every write is fsynced before it is acknowledged: keys and counters survive a crash. */
    public boolean durable() {
        return appendOnly.orElse(false) && appendFsync.map(s -> s.equalsIgnoreCase("always")).orElse(false);
    }

    /** True if memory pressure can evict keys with a TTL: lock keys, so two clients could hold a lock. */
    public boolean mayEvictLocks() {
        return maxmemoryPolicy.map(p -> !p.equalsIgnoreCase("noeviction")).orElse(false);
    }

    /** True if memory pressure can evict keys without a TTL: fencing counters, so tokens could go back. */
    public boolean mayEvictCounters() {
        return maxmemoryPolicy.map(p -> p.toLowerCase(Locale.ROOT).startsWith("allkeys-")).orElse(false);
    }
}
