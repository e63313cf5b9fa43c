package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.internal.ThreadExecutorMap;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;


/**
 * Lock operations queued for a node in the same event-loop turn go out as one call of the batch script. Each keeps
 * its own answer: a held key does not fail a free one, an operation the node rejects fails alone, replies are not
 * mixed up between operations of different kinds, and a node that forgot its scripts still runs them.
 */
@WithRedisNodes(5)
class BatchedScriptsIT {

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final Duration LONGER = Duration.ofSeconds(30);
    /** How many acquisitions {@link #inOneTurn} tries for one whose continuation runs on an I/O thread. */
    private static final int MAX_TURNS = 20;

    @BeforeEach
    void logEveryCommand(RedisNodes nodes) {
        for (RedisServer node : nodes) {
            node.redis(r -> {
                r.configSet("slowlog-log-slower-than", "0");
                r.configSet("slowlog-max-len", "10000");
                return r.slowlogReset();
            });
        }
    }

    @Test
    void aHeldResourceAndAFreeOneQueuedInOneTurnEachGetTheirOwnAnswer(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease held = redlock.tryAcquire("batch:held", TTL).orElseThrow();
            List<CompletableFuture<Optional<Lease>>> both = inOneTurn(redlock, () -> List.of(
                    redlock.tryAcquireAsync("batch:held", TTL).toCompletableFuture(),
                    redlock.tryAcquireAsync("batch:free", TTL).toCompletableFuture()));

            assertThat(both.get(0).get()).isEmpty();
            Lease free = both.get(1).get().orElseThrow();
            assertThat(free.fencingToken()).isPositive();
            assertThat(held.isValid()).isTrue();
            assertThat(batchedCalls(nodes)).as("EVALSHA calls carrying several operations").isPositive();
            free.release();
            held.release();
            assertThat(ItSupport.absentEverywhere(nodes, "batch:free")).isTrue();
            assertThat(ItSupport.absentEverywhere(nodes, "batch:held")).isTrue();
        }
    }

    @Test
    void anOperationTheNodeRejectsFailsAloneAndLeavesNoKeyBehind(RedisNodes nodes) throws Exception {
        for (RedisServer node : nodes) {
            node.redis(r -> r.set("batch:broken:fence", "not a number")); // INCR fails on every node
        }
        try (Redlock redlock = redlockOn(nodes).build()) {
            List<CompletableFuture<Optional<Lease>>> both = inOneTurn(redlock, () -> List.of(
                    redlock.tryAcquireAsync("batch:broken", TTL).toCompletableFuture(),
                    redlock.tryAcquireAsync("batch:fine", TTL).toCompletableFuture()));

            assertThat(both.get(0).handle((lease, failure) -> lease != null && lease.isPresent()).get()).isFalse();
            Lease fine = both.get(1).get().orElseThrow();
            assertThat(batchedCalls(nodes)).isPositive();
            assertThat(ItSupport.absentEverywhere(nodes, "batch:broken")).as("the failed attempt cleaned up").isTrue();
            fine.release();
            assertThat(ItSupport.absentEverywhere(nodes, "batch:fine")).isTrue();
        }
    }

    @Test
    void extendsAndReleasesInOneBatchEachGetTheirOwnReply(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            List<Lease> leases = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                leases.add(redlock.tryAcquire("batch:mixed:" + i, TTL).orElseThrow());
            }
            List<CompletableFuture<Object>> done = inOneTurn(redlock, () -> {
                List<CompletableFuture<Object>> ops = new ArrayList<>();
                for (int i = 0; i < leases.size(); i++) {
                    CompletionStage<?> op = i % 2 == 0 ? leases.get(i).extendAsync(LONGER)
                            : leases.get(i).releaseAsync();
                    ops.add(op.toCompletableFuture().thenApply(result -> (Object) result));
                }
                return ops;
            });

            for (int i = 0; i < leases.size(); i++) {
                Object result = done.get(i).get(10, TimeUnit.SECONDS);
                String key = "batch:mixed:" + i;
                if (i % 2 == 0) {
                    assertThat(result).as(key).isEqualTo(Boolean.TRUE);
                    // confirmed by a majority: the other nodes' PEXPIREs land a moment later
                    org.awaitility.Awaitility.await().atMost(ItSupport.units(50)).untilAsserted(() -> {
                        for (RedisServer node : nodes) {
                            assertThat(node.pttl(key)).as("%s on %s", key, node).isGreaterThan(TTL.toMillis());
                        }
                    });
                } else {
                    assertThat(ItSupport.absentEverywhere(nodes, key)).as(key).isTrue();
                }
            }
            assertThat(batchedCalls(nodes)).isPositive();
            leases.forEach(Lease::release);
        }
    }

    @Test
    void aBatchStillRunsOnNodesThatForgotTheirScripts(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            for (RedisServer node : nodes) {
                node.redis(r -> r.scriptFlush());
            }
            List<CompletableFuture<Optional<Lease>>> both = inOneTurn(redlock, () -> List.of(
                    redlock.tryAcquireAsync("batch:flushed:a", TTL).toCompletableFuture(),
                    redlock.tryAcquireAsync("batch:flushed:b", TTL).toCompletableFuture()));

            Lease a = both.get(0).get().orElseThrow();
            Lease b = both.get(1).get().orElseThrow();
            assertThat(b.fencingToken()).isPositive();
            a.release();
            b.release();
            assertThat(ItSupport.absentEverywhere(nodes, "batch:flushed:a")).isTrue();
            assertThat(ItSupport.absentEverywhere(nodes, "batch:flushed:b")).isTrue();
        }
    }

    /**
     * Starts {@code operations} from the continuation of a node's reply, where everything queued is written together
     * once the I/O thread has handled the replies at hand; waits until each has completed (normally or not).
     *
     * <p>A continuation chained after its stage completed runs on the caller's thread instead (the caller was
     * descheduled between starting the acquisition and chaining on it, as on a busy CI machine): there the I/O
     * loop's flush may run between two of the operations, so such a turn starts nothing and another is tried.
     */
    private static <T> List<CompletableFuture<T>> inOneTurn(Redlock redlock,
            Supplier<List<CompletableFuture<T>>> operations) throws Exception {
        for (int turn = 0; turn < MAX_TURNS; turn++) {
            List<CompletableFuture<T>> started = redlock.tryAcquireAsync("batch:turn", TTL)
                    .thenApply(lease -> {
                        List<CompletableFuture<T>> ops = onIoThread() ? operations.get() : null;
                        lease.ifPresent(Lease::releaseAsync);
                        return ops;
                    }).toCompletableFuture().get(10, TimeUnit.SECONDS);
            if (started != null) {
                CompletableFuture.allOf(started.stream().map(f -> f.exceptionally(e -> null))
                        .toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
                return started;
            }
        }
        throw new AssertionError("no acquisition in " + MAX_TURNS + " completed on an I/O thread");
    }

    /** Whether the calling thread is an event loop's (where the nodes' replies are handed over). */
    private static boolean onIoThread() {
        return ThreadExecutorMap.currentExecutor() != null;
    }

    /** How many EVALSHA calls the nodes ran with more keys than any single lock operation has (4). */
    private static long batchedCalls(RedisNodes nodes) {
        long calls = 0;
        for (RedisServer node : nodes) {
            List<Object> log = node.redis(r -> r.slowlogGet(10000));
            for (Object entry : log) {
                List<?> fields = (List<?>) entry;
                List<?> args = (List<?>) fields.get(3);
                if (args.size() > 2 && "EVALSHA".equalsIgnoreCase(String.valueOf(args.get(0)))
                        && Integer.parseInt(String.valueOf(args.get(2))) > 4) {
                    calls++;
                }
            }
        }
        return calls;
    }
}
