package io.redlock.internal.report;

import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.redlock.ClusterReport;
import io.redlock.NodeReport;
import io.redlock.internal.node.Failures;
import io.redlock.internal.node.NodeClient;
import io.redlock.internal.node.Redaction;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Reads one node's settings from {@code INFO} and {@code CONFIG GET appendfsync} into a {@link NodeReport}; for a
 * member that is a Redis Cluster, every master's, with the slot map and {@code CLUSTER INFO}.
 */
final class NodeInspector {

    private NodeInspector() {
    }

    static CompletionStage<NodeReport> inspect(NodeClient node, long timeoutNanos, Redaction redaction) {
        CompletableFuture<NodeReport> report = node.cluster()
                ? node.<NodeReport>command(redis -> cluster(node.name(),
                        (RedisAdvancedClusterAsyncCommands<String, String>) redis, redaction)).toCompletableFuture()
                : server(node.name(), node::command);
        return report.orTimeout(timeoutNanos, TimeUnit.NANOSECONDS)
                .exceptionally(failure -> NodeReport.unreachable(node.name(),
                        Failures.of(node.name(), failure, redaction).reason()));
    }

    /** Runs one command on the server being inspected. */
    @FunctionalInterface
    private interface On {
        <T> CompletionStage<T> command(Function<RedisClusterAsyncCommands<String, String>, CompletionStage<T>> command);
    }

    private static CompletableFuture<NodeReport> server(String name, On on) {
        CompletableFuture<String> info = on.<String>command(redis -> redis.info()).toCompletableFuture();
        CompletableFuture<Optional<String>> fsync = on.<Map<String, String>>command(
                redis -> redis.configGet("appendfsync")).toCompletableFuture()
                .handle((config, failure) -> failure == null && config != null
                        ? Optional.ofNullable(config.get("appendfsync")) : Optional.<String>empty());
        return info.thenCombine(fsync, (text, appendFsync) -> report(name, parse(text), appendFsync));
    }

    /** The slot map the member's connection holds, each master inspected on its own connection, and the state. */
    private static CompletionStage<NodeReport> cluster(String name, RedisAdvancedClusterAsyncCommands<String, String> redis,
            Redaction redaction) {
        Partitions partitions = redis.getStatefulConnection().getPartitions();
        List<RedisClusterNode> masters = partitions.stream().filter(n -> n.is(RedisClusterNode.NodeFlag.UPSTREAM))
                .toList();
        int replicas = (int) partitions.stream().filter(n -> n.is(RedisClusterNode.NodeFlag.REPLICA)).count();
        int covered = (int) masters.stream().flatMap(m -> m.getSlots().stream()).distinct().count();
        List<CompletableFuture<NodeReport>> reports = new ArrayList<>();
        for (RedisClusterNode master : masters) {
            String masterName = master.getUri().getHost() + ":" + master.getUri().getPort();
            On on = new On() {
                @Override
                public <T> CompletionStage<T> command(
                        Function<RedisClusterAsyncCommands<String, String>, CompletionStage<T>> command) {
                    return redis.getStatefulConnection().getConnectionAsync(master.getNodeId())
                            .thenCompose(connection -> command.apply(connection.async()));
                }
            };
            reports.add(server(masterName, on).exceptionally(failure -> NodeReport.unreachable(masterName,
                    Failures.of(masterName, failure, redaction).reason())));
        }
        CompletableFuture<String> state = redis.clusterInfo().toCompletableFuture()
                .thenApply(info -> parse(info).getOrDefault("cluster_state", "unknown"));
        return CompletableFuture.allOf(reports.toArray(CompletableFuture[]::new)).thenCombine(state,
                (done, clusterState) -> NodeReport.ofCluster(name, new ClusterReport(
                        reports.stream().map(CompletableFuture::join).toList(), replicas, covered, clusterState)));
    }

    static NodeReport report(String node, Map<String, String> info, Optional<String> appendFsync) {
        return new NodeReport(node, Optional.empty(), Optional.ofNullable(info.get("redis_version")),
                Optional.ofNullable(info.get("role")), Optional.ofNullable(info.get("run_id")),
                Optional.ofNullable(info.get("cluster_enabled")).map("1"::equals),
                Optional.ofNullable(info.get("maxmemory_policy")),
                Optional.ofNullable(info.get("aof_enabled")).map("1"::equals), appendFsync);
    }

    static Map<String, String> parse(String info) {
        Map<String, String> fields = new HashMap<>();
        for (String line : info.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && !line.startsWith("#")) {
                fields.put(line.substring(0, colon), line.substring(colon + 1).trim());
            }
        }
        return fields;
    }
}
