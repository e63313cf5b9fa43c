package io.redlock.faults;

import static io.redlock.faults.RowBench.PATIENCE;
import static io.redlock.faults.RowBench.PROBE_TIMEOUT;
import static io.redlock.faults.RowBench.TTL;
import static io.redlock.faults.RowBench.sleep;
import static io.redlock.faults.RowBench.ttls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.Lease;
import io.redlock.QuorumUnreachableException;
import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Rows about the lock nodes themselves: stalled (F3, F16), crashed (F4, F5), evicting (F14), refusing writes (F15). */
final class NodeFaultRows {

    private static final Logger log = LoggerFactory.getLogger(FaultMatrixIT.class);

    private NodeFaultRows() {
    }

    /** F3. */
    static Measured nodesStalled(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        Workload w = b.workload(nodes.uris());
        Redlock probe = b.connectedProbeBeforeStalls();
        w.awaitAcquisitions(2, PATIENCE);
        nodes.node(0).pause();
        w.awaitAcquisitions(3, PATIENCE); // 4 of 5
        nodes.node(1).pause();
        w.awaitAcquisitions(3, PATIENCE); // 3 of 5
        b.asserted(FaultRow.Also.PROGRESS_UNDER_FAULT);
        nodes.node(2).pause();
        long stalled = System.nanoTime();
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            // on a thread of its own, bounded: an attempt that waited for a stalled node would never return
            boolean acquired = CompletableFuture.supplyAsync(() -> tryAcquireOrFail(probe, "probe"))
                    .get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            log.info("F3: attempt with 3 of 5 nodes stalled failed after {} ms (node timeout {} ms)",
                    Duration.ofNanos(System.nanoTime() - start).toMillis(), PROBE_TIMEOUT.toMillis());
            assertThat(acquired).as("no false success with 3 of 5 nodes stalled").isFalse();
        }
        sleep(ttls(3));
        long during = w.record.acquiredBetween(stalled, System.nanoTime());
        nodes.node(0).resume();
        nodes.node(1).resume();
        nodes.node(2).resume();
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        assertThat(during).as("acquisitions with 3 of 5 nodes stalled").isZero();
        b.asserted(FaultRow.Also.NO_LOCK_WITHOUT_MAJORITY);
        return Measured.of(w);
    }

    /** One attempt: true if it got a lease (released at once), false if refused or the quorum was unreachable. */
    private static boolean tryAcquireOrFail(Redlock redlock, String key) {
        try {
            Optional<Lease> lease = redlock.tryAcquire(key, TTL);
            lease.ifPresent(Lease::release);
            return lease.isPresent();
        } catch (QuorumUnreachableException e) {
            return false;
        }
    }

    /** F4. */
    static Measured crashAndImmediateRestart(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        Workload w = b.workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        b.injectAgainstHolders("F4", w, holder -> b.onNodes(i -> nodes.node(i)::restart, 0, 1, 2));
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    /** F5. */
    static Measured crashAndDelayedRestart(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        Workload w = b.workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        w.awaitHolder(PATIENCE);
        List<CompletableFuture<Void>> back = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            back.add(nodes.node(i).restartAfter(ttls(1.5)));
        }
        back.forEach(CompletableFuture::join);
        w.awaitAcquisitions(4, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    /** F14. */
    static Measured evictionOnThreeNodes(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        Workload w = b.workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        b.injectAgainstHolders("F14", w, holder -> b.onNodes(i -> () -> evictLocks(nodes.node(i)), 0, 1, 2));
        b.onNodes(i -> () -> nodes.node(i).redis(r -> {
            r.configSet("maxmemory", "0");
            return r.configSet("maxmemory-policy", "noeviction");
        }), 0, 1, 2);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    /** Fills the node past a tight maxmemory under allkeys-lru until the lock key is evicted. */
    private static void evictLocks(RedisServer node) {
        String info = node.redis(r -> r.info("memory"));
        long used = Long.parseLong(info.lines().filter(l -> l.startsWith("used_memory:")).findFirst().orElseThrow()
                .substring("used_memory:".length()).trim());
        node.evictAnyKeyAbove(used + 512 * 1024);
        String junk = "x".repeat(1024);
        for (int batch = 0; batch < 20 && node.get(Workload.RESOURCE) != null; batch++) {
            Map<String, String> keys = new HashMap<>();
            for (int i = 0; i < 200; i++) {
                keys.put("junk:" + batch + ":" + i, junk);
            }
            node.redis(r -> r.mset(keys));
        }
    }

    /**
     * F15. Writes stay paused on 2 nodes until the workers made 2 acquisitions begun after the pause (a write to a
     * paused node, sent first, is still held back then), so progress under the fault does not depend on how fast the
     * machine is.
     */
    static Measured writesPausedOnTwoNodes(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        Workload w = b.workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        b.onNodes(i -> () -> nodes.node(i).pauseWrites(PATIENCE), 0, 1);
        long paused = System.nanoTime();
        RedisClient client = RedisClient.create(nodes.node(0).uri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            connection.setTimeout(PATIENCE);
            RedisFuture<String> write = connection.async().set("probe", "1");
            await().atMost(PATIENCE.dividedBy(2)).until(() -> w.record.acquiredSince(paused) >= 2);
            assertThat(write.isDone()).as("a write to a paused node is still held back").isFalse();
            b.asserted(FaultRow.Also.PROGRESS_UNDER_FAULT);
            b.onNodes(i -> nodes.node(i)::resumeWrites, 0, 1);
            assertThat(write.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo("OK");
        } finally {
            client.shutdown();
        }
        log.info("F15: {} acquisitions while 2 nodes refused writes",
                w.record.acquiredBetween(paused, System.nanoTime()));
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    /** F16. */
    static Measured majorityStalledPastEveryRetryWindow(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        Workload w = b.workload(nodes.uris());
        Redlock probe = b.connectedProbeBeforeStalls();
        w.awaitAcquisitions(2, PATIENCE);
        List<RedisServer> stalled = nodes.servers().subList(0, 3);
        stalled.forEach(RedisServer::pause);
        assertThat(probe.tryAcquire("stall-orphan", Duration.ofSeconds(30))).as("no majority while stalled").isEmpty();
        b.asserted(FaultRow.Also.NO_LOCK_WITHOUT_MAJORITY);
        sleep(Duration.ofSeconds(8));
        stalled.forEach(RedisServer::resume);
        // its deletes are repeated until the 30 s key would have expired: gone well before that
        b.awaitGone(b.closeLater(new NodeKeys(nodes)), "stall-orphan", Duration.ofSeconds(10),
                "F16: the failed attempt's keys are gone within 10 s of the resume, 20 s before their TTL");
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        return Measured.of(w);
    }
}
