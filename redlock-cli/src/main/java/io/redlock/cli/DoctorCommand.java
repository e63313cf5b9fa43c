package io.redlock.cli;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.redlock.ClusterReport;
import io.redlock.Inspection;
import io.redlock.NodeReport;
import io.redlock.Redlock;
import io.redlock.RedlockConfig;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Check the nodes for what Redlock's guarantees need.",
            "Reachable and fast, a master, not in cluster mode, no eviction, persistence (or delayed "
                    + "restarts), clocks that agree, independent servers, scripting allowed. One row per check, "
                    + "then a verdict.",
            "A member that is a Redis Cluster (cluster:redis://host:port|...) gets a row for its slot "
                    + "coverage and the rows of a node for each of its masters."},
        footer = {"%nExamples:",
            "  redlock doctor --nodes redis://h1:6379,redis://h2:6379,redis://h3:6379",
            "  redlock doctor --json > doctor.json      # checks, fails, warnings, verdict"})
final class DoctorCommand implements Callable<Integer> {

    /** The oldest Redis major version the library is tested with. */
    static final int MIN_TESTED_MAJOR = 6;

    @Mixin
    NodeOptions nodes;

    @Spec
    CommandSpec spec;

    @Option(names = "--ttl", defaultValue = "30s", converter = Durations.class, paramLabel = "DURATION",
            description = "The lease time you use, for the clock drift allowance (default: ${DEFAULT-VALUE}).")
    Duration ttl;

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    /**
     * Renders core's {@link Inspection} (reachability, version, role, cluster mode, eviction, persistence,
     * independence); only what core does not report is measured here by a {@link NodeProbe}: PING latency
     * percentiles, the node's clock, whether scripts may run.
     */
    @Override
    public Integer call() {
        List<DoctorFinding> checks = new ArrayList<>();
        try (Redlock redlock = nodes.connect()) {
            Inspection inspection = redlock.inspect();
            List<RedisURI> uris = redlock.config().nodes(); // in the order of the inspection's reports
            RedisClient client = RedisClient.create();
            try {
                List<NodeProbe> probes = new ArrayList<>();
                long allowance = (long) (ttl.toMillis() * redlock.config().driftFactor()) + 2;
                Map<String, String> duplicates = inspection.duplicates();
                for (int i = 0; i < uris.size(); i++) {
                    NodeReport report = inspection.nodes().get(i);
                    if (report.cluster().isEmpty()) {
                        // a node core could not inspect is reported as such; nothing more to measure there
                        NodeProbe probe = report.reachable() ? NodeProbe.probe(client, uris.get(i), report.node()) : null;
                        probes.add(probe);
                        check(report, probe, allowance, false, checks);
                    } else {
                        clusterMember(report, report.cluster().get(), redlock.config().clusterSeeds(i).get(0), client,
                                allowance, probes, checks);
                    }
                    if (report.reachable()) {
                        checks.add(independence(report, duplicates));
                    }
                }
                clockSpread(probes, allowance, checks);
            } finally {
                client.shutdown();
            }
        }
        return report(checks);
    }

    /**
     * A member that is a Redis Cluster: one row for the cluster (masters, replicas, slot coverage; FAIL when slots
     * lack a master or the cluster reports a failure), then every master's rows as for a node.
     */
    private void clusterMember(NodeReport member, ClusterReport cluster, RedisURI seed, RedisClient client,
            long allowance, List<NodeProbe> probes, List<DoctorFinding> checks) {
        String detail = cluster.masters().size() + " masters, " + cluster.replicas() + " replicas, " + cluster.covered()
                + " of " + ClusterReport.SLOTS + " slots covered, cluster_state " + cluster.state();
        checks.add(cluster.complete() ? DoctorFinding.ok(member.node(), "cluster", detail)
                : DoctorFinding.fail(member.node(), "cluster", detail + ": locks in slots without a working master get no"
                        + " vote from this member"));
        for (NodeReport master : cluster.masters()) {
            NodeProbe probe = null;
            if (master.reachable()) {
                int colon = master.node().lastIndexOf(':');
                RedisURI uri = RedisURI.builder(seed).withHost(master.node().substring(0, colon))
                        .withPort(Integer.parseInt(master.node().substring(colon + 1))).build();
                probe = NodeProbe.probe(client, uri, master.node());
            }
            probes.add(probe);
            check(master, probe, allowance, true, checks);
        }
    }

    private DoctorFinding independence(NodeReport report, Map<String, String> duplicates) {
        String node = report.node();
        String earlier = duplicates.get(node);
        if (earlier != null) {
            return DoctorFinding.fail(node, "independence", "the same " + (report.cluster().isPresent() ? "cluster" : "server")
                    + " as " + earlier + " (same run_id)");
        }
        if (report.cluster().isPresent()) {
            return DoctorFinding.ok(node, "independence", "no master shared with another member");
        }
        String runId = report.runId().orElse(node);
        return DoctorFinding.ok(node, "independence", "run_id " + runId.substring(0, Math.min(12, runId.length())));
    }

    /** A node's rows; {@code clusterMaster}: a master of a cluster member, whose cluster has a row of its own. */
    private void check(NodeReport report, NodeProbe probe, long allowance, boolean clusterMaster, List<DoctorFinding> checks) {
        String node = report.node();
        if (!report.reachable()) {
            checks.add(DoctorFinding.fail(node, "reachable", report.problem().orElse("")));
            return;
        }
        if (!probe.reachable()) { // inspected, but the probe's own connection failed
            checks.add(DoctorFinding.fail(node, "reachable", probe.problem));
            return;
        }
        String latency = String.format(Locale.ROOT, "PING p50 %.2f ms, p99 %.2f ms over %d pings",
                probe.p50Micros / 1000.0, probe.p99Micros / 1000.0, NodeProbe.PINGS);
        checks.add(probe.p99Micros / 1000 > nodes.nodeTimeout.toMillis()
                ? DoctorFinding.warn(node, "latency", latency + "; above the per-node timeout "
                        + Durations.format(nodes.nodeTimeout))
                : DoctorFinding.ok(node, "latency", latency));
        String version = report.version().orElse("unknown");
        checks.add(Versions.olderThan(version, MIN_TESTED_MAJOR)
                ? DoctorFinding.warn(node, "version", version + "; Redis 6 or later is tested")
                : DoctorFinding.ok(node, "version", version));
        checks.add(report.isMaster() ? DoctorFinding.ok(node, "role", "master")
                : DoctorFinding.fail(node, "role", report.role().orElse("unknown")
                        + ": a replica is not an independent master; a failover can promote one that has not got"
                        + " a lock yet, and two clients then hold it: list independent masters"));
        if (!clusterMaster) { // a cluster member's masters are judged by the member's own row
            checks.add(report.clusterEnabled().orElse(false)
                    ? DoctorFinding.warn(node, "cluster", "cluster mode: list it as a cluster member ("
                            + RedlockConfig.CLUSTER_PREFIX + "redis://host:port) so every key of a lock shares one slot")
                    : DoctorFinding.ok(node, "cluster", "standalone"));
        }
        checks.add(eviction(report));
        checks.add(report.durable() ? DoctorFinding.ok(node, "persistence", "appendonly yes, appendfsync always")
                : DoctorFinding.warn(node, "persistence", "appendonly " + report.appendOnly().map(b -> b ? "yes" : "no")
                        .orElse("?") + ", appendfsync " + report.appendFsync().orElse("?")
                        + ": a crash can forget the locks it held; fix it with appendonly yes and appendfsync"
                        + " always, or restart a crashed node only after the largest TTL has passed (delayed"
                        + " restart)"));
        long offset = Math.abs(probe.clockOffsetMillis);
        checks.add(offset > allowance
                ? DoctorFinding.warn(node, "clock", "differs from this machine by " + probe.clockOffsetMillis
                        + " ms, more than the drift allowance " + allowance + " ms")
                : DoctorFinding.ok(node, "clock", "within " + offset + " ms of this machine"));
        checks.add(probe.scripting == null ? DoctorFinding.ok(node, "scripting", "EVAL, SCRIPT LOAD and EVALSHA allowed")
                : DoctorFinding.fail(node, "scripting", probe.scripting + "; the lock scripts cannot run"));
    }

    /** The eviction row from core's reading of the policy; a policy the node did not tell fails too. */
    private static DoctorFinding eviction(NodeReport report) {
        String node = report.node();
        if (report.maxmemoryPolicy().isEmpty()) {
            return DoctorFinding.fail(node, "eviction", "maxmemory-policy unknown: memory pressure can evict lock keys (two"
                    + " holders) or counters; use noeviction");
        }
        String policy = "maxmemory-policy " + report.maxmemoryPolicy().get();
        if (report.mayEvictCounters()) {
            return DoctorFinding.fail(node, "eviction", policy + ": memory pressure can evict lock keys (two holders) and"
                    + " fencing counters; use noeviction");
        }
        return report.mayEvictLocks() ? DoctorFinding.fail(node, "eviction", policy + ": memory pressure can evict lock keys"
                + " (two holders); use noeviction") : DoctorFinding.ok(node, "eviction", policy);
    }

    private static void clockSpread(List<NodeProbe> probes, long allowance, List<DoctorFinding> checks) {
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (NodeProbe probe : probes) {
            if (probe != null && probe.reachable()) {
                min = Math.min(min, probe.clockOffsetMillis);
                max = Math.max(max, probe.clockOffsetMillis);
            }
        }
        if (min <= max) {
            long spread = max - min;
            checks.add(spread > allowance
                    ? DoctorFinding.warn("all", "clock spread", spread + " ms between nodes, more than " + allowance + " ms")
                    : DoctorFinding.ok("all", "clock spread", spread + " ms between nodes"));
        }
    }

    private int report(List<DoctorFinding> checks) {
        long fails = checks.stream().filter(c -> c.status() == DoctorFinding.Status.FAIL).count();
        long warns = checks.stream().filter(c -> c.status() == DoctorFinding.Status.WARN).count();
        String verdict = fails > 0 ? "FAIL" : warns > 0 ? "WARN" : "OK";
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            Map<String, Object> doc = new LinkedHashMap<>();
            doc.put("checks", checks);
            doc.put("fails", fails);
            doc.put("warnings", warns);
            doc.put("verdict", verdict);
            out.println(Json.of(doc));
        } else {
            int nodeWidth = Math.max(4, checks.stream().mapToInt(c -> c.node().length()).max().orElse(4));
            int checkWidth = Math.max(5, checks.stream().mapToInt(c -> c.check().length()).max().orElse(5));
            String row = "%-" + nodeWidth + "s  %-" + checkWidth + "s  %-6s %s%n";
            out.printf(row, "NODE", "CHECK", "STATUS", "DETAIL");
            for (DoctorFinding c : checks) {
                out.printf(row, c.node(), c.check(), c.status(), c.detail());
            }
            out.println();
            out.println("verdict: " + verdict + " (" + fails + " FAIL, " + warns + " WARN)"
                    + (fails > 0 ? ": fix the FAIL rows before relying on these nodes for locks" : ""));
        }
        out.flush();
        return fails > 0 ? ExitCodes.CHECK_FAILED : ExitCodes.OK;
    }
}
