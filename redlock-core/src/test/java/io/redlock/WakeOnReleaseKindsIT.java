package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Waiters of the kinds that do not queue — a reader, a lock of several resources — are woken by a holder's release
 * with fencing on (the default), as queued waiters are: with retry delays of 8 s or more, only the release's message
 * can bring them in within seconds.
 */
@WithRedisNodes(3)
class WakeOnReleaseKindsIT {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final RetryPolicy SLOW_POLLING = RetryPolicy.uniform(Duration.ofSeconds(8), Duration.ofSeconds(9));

    @Test
    void aReaderWaitingForAWriterGetsInWhenTheWriterReleases(RedisNodes nodes) throws Exception {
        try (Redlock holder = redlockOn(nodes).build();
                Redlock waiter = redlockOn(nodes).retry(SLOW_POLLING).build()) {
            Lease writer = holder.readWriteLock("wake:rw").tryAcquireWrite(TTL).orElseThrow();
            CompletableFuture<Optional<Lease>> reader = CompletableFuture.supplyAsync(
                    () -> waiter.readWriteLock("wake:rw").acquireRead(TTL, Duration.ofSeconds(30)));
            awaitListening(nodes, "wake:rw");
            writer.release();
            reader.get(5, TimeUnit.SECONDS).orElseThrow().release();
        }
    }

    @Test
    void aLockOfSeveralResourcesWaitingForOneOfThemGetsThemWhenItIsReleased(RedisNodes nodes) throws Exception {
        try (Redlock holder = redlockOn(nodes).build();
                Redlock waiter = redlockOn(nodes).retry(SLOW_POLLING).build()) {
            Lease plain = holder.tryAcquire("wake:b", TTL).orElseThrow();
            CompletableFuture<Optional<MultiLease>> several = waiter
                    .acquireAllAsync(List.of("wake:a", "wake:b"), TTL, Duration.ofSeconds(30)).toCompletableFuture();
            awaitListening(nodes, "wake:b");
            plain.release();
            several.get(5, TimeUnit.SECONDS).orElseThrow().release();
        }
    }

    /** Until the waiter, refused once, listens on the resource's release channel on every node. */
    private static void awaitListening(RedisNodes nodes, String resource) {
        String channel = resource + ":released";
        await().atMost(Duration.ofSeconds(5)).until(() -> nodes.servers().stream().allMatch(node -> {
            Map<String, Long> listening = node.redis(r -> r.pubsubNumsub(channel));
            return listening.getOrDefault(channel, 0L) > 0;
        }));
    }
}
