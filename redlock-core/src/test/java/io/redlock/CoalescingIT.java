package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Commands sent from Lettuce's I/O thread (continuations of earlier replies) are coalesced into one write per node:
 * none may be left in the buffer, order per node is kept, and keys travel as exact UTF-8.
 */
@WithRedisNodes(5)
class CoalescingIT {

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final int CHAINS = 64;
    private static final int PAIRS_PER_CHAIN = 40;

    @Test
    void chainsOfAcquireAndReleaseStartedFromReplyCallbacksAllComplete(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).nodeTimeout(Duration.ofSeconds(1)).build()) {
            AtomicInteger acquired = new AtomicInteger();
            List<CompletableFuture<Void>> chains = new ArrayList<>();
            for (int c = 0; c < CHAINS; c++) {
                chains.add(chain(redlock, "chain:" + c + ":ü🔒", PAIRS_PER_CHAIN, acquired).toCompletableFuture());
            }
            CompletableFuture.allOf(chains.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

            assertThat(acquired).hasValue(CHAINS * PAIRS_PER_CHAIN);
            for (int c = 0; c < CHAINS; c++) {
                assertThat(ItSupport.absentEverywhere(nodes, "chain:" + c + ":ü🔒")).isTrue();
            }
        }
    }

    @Test
    void aNonAsciiResourceIsStoredUnderItsUtf8NameOnEveryNode(RedisNodes nodes) {
        try (Redlock redlock = ItSupport.countingFromOne(redlockOn(nodes)).build()) { // counters agree: no floor
            String resource = "zürich:日本:🔒";
            Lease lease = redlock.tryAcquire(resource, TTL).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, resource);
            for (RedisServer node : nodes) {
                assertThat(node.get(resource)).isEqualTo(lease.value());
                assertThat(node.get(resource + ":fence")).isEqualTo(Long.toString(lease.fencingToken()));
            }
            lease.release();
            assertThat(ItSupport.absentEverywhere(nodes, resource)).isTrue();
        }
    }

    @Test
    void aBlockingCallOnAForeignNettyEventLoopIsNotLeftWaitingForAFlush(RedisNodes nodes) throws Exception {
        EventLoop loop = new DefaultEventLoop();
        try (Redlock redlock = redlockOn(nodes).build()) {
            Boolean acquiredAndReleased = loop.submit(() -> {
                Lease lease = redlock.tryAcquire("foreign-loop", TTL).orElseThrow();
                lease.release();
                return true;
            }).get(10, TimeUnit.SECONDS);
            assertThat(acquiredAndReleased).isTrue();
            assertThat(ItSupport.absentEverywhere(nodes, "foreign-loop")).isTrue();
        } finally {
            loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    /** Acquire, release, and the next acquire from the release's completion, {@code left} times. */
    private static CompletionStage<Void> chain(Redlock redlock, String resource, int left, AtomicInteger acquired) {
        if (left == 0) {
            return CompletableFuture.completedFuture(null);
        }
        return redlock.tryAcquireAsync(resource, TTL).thenCompose(lease -> {
            if (lease.isEmpty()) {
                return CompletableFuture.failedFuture(new AssertionError("not acquired: " + resource));
            }
            acquired.incrementAndGet();
            return lease.get().releaseAsync();
        }).thenCompose(released -> chain(redlock, resource, left - 1, acquired));
    }
}
