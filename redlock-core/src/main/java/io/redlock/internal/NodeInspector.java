package io.redlock.internal;

import io.redlock.NodeReport;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/** Reads one node's settings from {@code INFO} and {@code CONFIG GET appendfsync} into a {@link NodeReport}. */
final class NodeInspector {

    private NodeInspector() {
    }

    static CompletionStage<NodeReport> inspect(NodeClient node, long timeoutNanos, Redaction redaction) {
        CompletableFuture<String> info = node.<String>command(redis -> redis.info()).toCompletableFuture();
        CompletableFuture<Optional<String>> fsync = node.<Map<String, String>>command(
                redis -> redis.configGet("appendfsync")).toCompletableFuture()
                .handle((config, failure) -> failure == null && config != null
                        ? Optional.ofNullable(config.get("appendfsync")) : Optional.<String>empty());
        return info.thenCombine(fsync, (text, appendFsync) -> report(node.name(), parse(text), appendFsync))
                .orTimeout(timeoutNanos, TimeUnit.NANOSECONDS)
                .exceptionally(failure -> NodeReport.unreachable(node.name(),
                        Failures.of(node.name(), failure, redaction).reason()));
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
