package io.redlock.internal;

import io.redlock.NodeStatus;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Reads what one node holds for a resource — the lock's value and TTL, the fencing counter, the waiter queue — with
 * plain read commands sent together (a snapshot, not atomic), into a {@link NodeStatus}.
 */
final class NodeStatusReader {

    private NodeStatusReader() {
    }

    /** @param keys the names of the resource's lock */
    static CompletableFuture<NodeStatus> read(NodeClient node, Keys keys, long timeoutNanos, Redaction redaction) {
        CompletableFuture<String> holder = node.<String>command(r -> r.get(keys.lock())).toCompletableFuture();
        CompletableFuture<Long> pttl = node.<Long>command(r -> r.pttl(keys.lock())).toCompletableFuture();
        CompletableFuture<String> fence = node.<String>command(r -> r.get(keys.fence())).toCompletableFuture();
        CompletableFuture<Long> queued = node.<Long>command(r -> r.zcard(keys.waiters())).toCompletableFuture();
        CompletableFuture<List<String>> head = node.<List<String>>command(r -> r.zrange(keys.waiters(), 0, 0))
                .toCompletableFuture();
        return CompletableFuture.allOf(holder, pttl, fence, queued, head)
                .orTimeout(timeoutNanos, TimeUnit.NANOSECONDS)
                .thenApply(done -> new NodeStatus(node.name(), Optional.empty(), Optional.ofNullable(holder.join()),
                        ttl(holder.join(), pttl.join()), counter(fence.join()), queued.join(),
                        head.join().stream().findFirst()))
                .exceptionally(failure -> NodeStatus.unreachable(node.name(),
                        Failures.of(node.name(), failure, redaction).reason()));
    }

    /** PTTL is -1 for a key without expiry, -2 for none. */
    private static Optional<Duration> ttl(String holder, Long pttl) {
        return holder != null && pttl != null && pttl >= 0 ? Optional.of(Duration.ofMillis(pttl)) : Optional.empty();
    }

    private static OptionalLong counter(String fence) {
        if (fence == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(fence));
        } catch (NumberFormatException notACounter) {
            return OptionalLong.empty();
        }
    }
}
