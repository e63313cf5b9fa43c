package io.redlock.internal.report;

import io.redlock.Inspection;
import io.redlock.PingResult;
import io.redlock.RedlockConfig;
import io.redlock.ResourceStatus;
import io.redlock.internal.node.NodeSet;
import io.redlock.internal.parts.ConfigCheck;
import io.redlock.internal.parts.Lifecycle;
import io.redlock.internal.parts.Parts;
import io.redlock.internal.protocol.Keys;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Read-only reports over every node: settings ({@link NodeInspector}), what a resource's keys hold
 * ({@link NodeStatusReader}) and reachability ({@link NodePing}). Nodes that do not answer are reported, never
 * thrown; each node is awaited for a bounded time.
 */
public final class Reports {

    private final NodeSet nodes;
    private final RedlockConfig config;
    private final Lifecycle lifecycle;

    public Reports(Parts parts) {
        this.nodes = parts.nodes();
        this.config = parts.config();
        this.lifecycle = parts.lifecycle();
    }

    /** Every node's settings, each read within {@link #timeoutNanos()}. */
    public CompletableFuture<Inspection> inspect() {
        lifecycle.ensureOpen();
        long timeout = timeoutNanos();
        return nodes.gather((i, node) -> NodeInspector.inspect(node, timeout, nodes.redaction()))
                .thenApply(reports -> new Inspection(reports, config.fencing(), config.fencingClockFloor()));
    }

    /** What every node holds for {@code resource}, each read within {@link #timeoutNanos()}. */
    public CompletableFuture<ResourceStatus> status(String resource) {
        ConfigCheck.resource(resource);
        lifecycle.ensureOpen();
        Keys keys = Keys.of(config, resource);
        long timeout = timeoutNanos();
        return nodes.gather((i, node) -> NodeStatusReader.read(node, keys, timeout, nodes.redaction()))
                .thenApply(reads -> new ResourceStatus(resource, config.quorum(), reads));
    }

    /** PING on every node at once, each awaited for at most the per-node timeout. */
    public CompletableFuture<List<PingResult>> ping() {
        lifecycle.ensureOpen();
        return nodes.gather((i, node) -> NodePing.one(node, nodes));
    }

    /** How long a read for a report waits for a node: max(1 s, the per-node timeout). */
    private long timeoutNanos() {
        return Math.max(nodes.nodeTimeoutNanos(), TimeUnit.SECONDS.toNanos(1));
    }
}
