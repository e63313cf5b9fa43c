package io.redlock.internal.report;

import io.redlock.PingResult;
import io.redlock.internal.node.Failures;
import io.redlock.internal.node.NodeClient;
import io.redlock.internal.node.NodeSet;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends {@code PING} to every node at once and reports per node whether it answered within the per-node timeout and
 * its round trip (measured with the configured ticker). A node that does not answer in time is reported, never
 * waited for longer.
 */
final class NodePing {

    private NodePing() {
    }

    /** PING on {@code node}; completes at the latest one per-node timeout after the call. */
    static CompletableFuture<PingResult> one(NodeClient node, NodeSet nodes) {
        long timeout = nodes.nodeTimeoutNanos();
        long start = nodes.ticker().read();
        return node.<String>command(redis -> redis.ping()).toCompletableFuture()
                .orTimeout(timeout, TimeUnit.NANOSECONDS)
                .handle((pong, failure) -> {
                    long took = nodes.ticker().read() - start;
                    if (failure == null && took <= timeout) {
                        return PingResult.answered(node.name(), Duration.ofNanos(took));
                    }
                    String problem = failure == null || Failures.unwrap(failure) instanceof TimeoutException
                            ? "no reply to PING within " + Failures.formatMillis(timeout)
                            : Failures.of(node.name(), failure, nodes.redaction()).reason();
                    return PingResult.unanswered(node.name(), problem);
                });
    }
}
