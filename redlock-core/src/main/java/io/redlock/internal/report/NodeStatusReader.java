package io.redlock.internal.report;

import io.lettuce.core.ScoredValue;
import io.redlock.NodeStatus;
import io.redlock.internal.node.Failures;
import io.redlock.internal.node.NodeClient;
import io.redlock.internal.node.Redaction;
import io.redlock.internal.protocol.Keys;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Reads what one node holds for a resource — the lock's value and TTL, the fencing counter, the waiter queue, the
 * holders of a shared lock (readers, permits) — with plain read commands sent together (a snapshot, not atomic), into
 * a {@link NodeStatus}.
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
        CompletableFuture<List<String>> time = node.<List<String>>command(r -> r.time()).toCompletableFuture();
        CompletableFuture<List<ScoredValue<String>>> readers = node.<List<ScoredValue<String>>>command(
                r -> r.zrangeWithScores(keys.readers(), 0, -1)).toCompletableFuture();
        CompletableFuture<List<ScoredValue<String>>> permits = node.<List<ScoredValue<String>>>command(
                r -> r.zrangeWithScores(keys.permits(), 0, -1)).toCompletableFuture();
        return CompletableFuture.allOf(holder, pttl, fence, queued, head, time, readers, permits)
                .orTimeout(timeoutNanos, TimeUnit.NANOSECONDS)
                .thenApply(done -> new NodeStatus(node.name(), Optional.empty(), Optional.ofNullable(holder.join()),
                        ttl(holder.join(), pttl.join()), counter(fence.join()), queued.join(),
                        head.join().stream().findFirst(), live(time.join(), readers.join(), permits.join())))
                .exceptionally(failure -> NodeStatus.unreachable(node.name(),
                        Failures.of(node.name(), failure, redaction).reason()));
    }

    /**
     * The holders of a shared lock whose entries have not lapsed by the node's clock ({@code TIME}), as the scripts
     * judge them: readers and permit holders (one of the two sets is empty).
     */
    private static List<String> live(List<String> time, List<ScoredValue<String>> readers,
            List<ScoredValue<String>> permits) {
        long now = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
        return Stream.concat(readers.stream(), permits.stream()).filter(holder -> holder.getScore() > now)
                .map(ScoredValue::getValue).toList();
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
