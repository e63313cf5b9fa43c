package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * States a node passes through — out of memory under noeviction, a replica, a failed save, loading, busy — cost that
 * node's vote for a while; they are not errors that end an acquisition.
 */
@WithRedisNodes(5)
class TransientNodeStateIT {

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final Duration WAIT = units(40);

    private RedisNodes nodes;

    @AfterEach
    void memoryBack() {
        if (nodes != null) {
            setMaxmemory(nodes.servers(), "0");
        }
    }

    private void outOfMemory(RedisNodes nodes, List<RedisServer> servers) {
        this.nodes = nodes;
        setMaxmemory(servers, "1");
    }

    private static void setMaxmemory(List<RedisServer> servers, String bytes) {
        servers.forEach(node -> node.redis(r -> r.configSet("maxmemory", bytes)));
    }

    /** Nodes 0-2 out of memory now, back 1.5 s later (15 units). */
    private void threeOutOfMemoryForAWhile(RedisNodes nodes) {
        List<RedisServer> full = nodes.servers().subList(0, 3);
        outOfMemory(nodes, full);
        CompletableFuture.runAsync(() -> setMaxmemory(full, "0"),
                CompletableFuture.delayedExecutor(units(15).toMillis(), TimeUnit.MILLISECONDS));
    }

    /** Every failure seen was the memory one, a state that passes: no node timed out or erred otherwise. */
    private static void assertOnlyOutOfMemory(List<NodeFailure> failures) {
        assertThat(failures).isNotEmpty().allSatisfy(failure -> {
            assertThat(failure.kind()).isEqualTo(NodeFailure.Kind.UNAVAILABLE);
            assertThat(failure.reason()).contains("OOM command not allowed");
        });
    }

    private static RedlockObserver failuresTo(List<NodeFailure> failures) {
        return new RedlockObserver() {
            @Override
            public void nodeFailed(NodeFailure failure) {
                failures.add(failure);
            }
        };
    }

    @Test
    void anAcquisitionWaitsOutNodesThatRanOutOfMemory(RedisNodes nodes) throws Exception {
        List<NodeFailure> failures = new CopyOnWriteArrayList<>();
        // every failure seen must be the memory one: no node may time out instead
        try (Redlock redlock = Observed.build(redlockOn(nodes).nodeTimeout(EveryNodeAnswers.NODE_TIMEOUT),
                failuresTo(failures))) {
            threeOutOfMemoryForAWhile(nodes);

            // far longer than the 1.5 s the nodes stay full, however late the memory comes back on a loaded machine
            Optional<Lease> lease = redlock.acquire("oom-passes", TTL, Duration.ofSeconds(20));

            assertThat(lease).isPresent();
            lease.get().release();
            assertOnlyOutOfMemory(failures);
        }
    }

    @Test
    void batchedAcquisitionsWaitOutNodesThatRanOutOfMemory(RedisNodes nodes) {
        List<NodeFailure> failures = new CopyOnWriteArrayList<>();
        try (Redlock redlock = Observed.build(redlockOn(nodes).nodeTimeout(EveryNodeAnswers.NODE_TIMEOUT),
                failuresTo(failures))) {
            threeOutOfMemoryForAWhile(nodes);

            // 64 fenced acquisitions queued at once: each node gets them as batched script calls
            List<CompletableFuture<Optional<Lease>>> attempts = IntStream.range(0, 64)
                    .mapToObj(i -> redlock.acquireAsync("oom-batched-" + i, TTL, Duration.ofSeconds(20))
                            .toCompletableFuture())
                    .toList();

            assertThat(attempts).allSatisfy(attempt -> assertThat(attempt)
                    .succeedsWithin(Duration.ofSeconds(60)).satisfies(lease -> assertThat(lease).isPresent()));
            attempts.forEach(attempt -> attempt.join().orElseThrow().release());
            assertOnlyOutOfMemory(failures);
        }
    }

    @Test
    void anAcquisitionGivesUpAfterItsWaitWhileTheNodesStayOutOfMemory(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            outOfMemory(nodes, nodes.servers().subList(2, 5));
            long start = System.nanoTime();

            Optional<Lease> lease = redlock.acquire("oom-stays", TTL, WAIT);

            assertThat(lease).isEmpty();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(WAIT, WAIT.plus(units(20)));
        }
    }
}
