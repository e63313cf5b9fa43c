package io.redlock.faults;

import static io.redlock.faults.RowBench.PATIENCE;
import static io.redlock.faults.RowBench.PROBE_TIMEOUT;
import static io.redlock.faults.RowBench.TTL;
import static io.redlock.faults.RowBench.injectUntilViolated;
import static io.redlock.faults.RowBench.sleep;
import static io.redlock.faults.RowBench.ttls;
import static org.assertj.core.api.Assertions.assertThat;

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
        sleep(ttls(0.5));
        int before = w.acquisitions.get();
        Duration bound = PROBE_TIMEOUT.plus(TTL.dividedBy(2));
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            boolean acquired = tryAcquireOrFail(probe, "probe");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            log.info("F3: attempt with 3 of 5 nodes stalled failed after {} ms", took.toMillis());
            assertThat(acquired).as("no false success with 3 of 5 nodes stalled").isFalse();
            assertThat(took).as("fails fast: about the per-node timeout (%s ms)", PROBE_TIMEOUT.toMillis())
                    .isLessThan(bound);
        }
        sleep(ttls(3));
        int during = w.acquisitions.get() - before;
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
        injectUntilViolated("F4", w, holder -> b.onNodes(i -> nodes.node(i)::restart, 0, 1, 2));
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
        injectUntilViolated("F14", w, holder -> b.onNodes(i -> () -> evictLocks(nodes.node(i)), 0, 1, 2));
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

    /** F15. */
    static Measured writesPausedOnTwoNodes(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        Workload w = b.workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        int before = w.acquisitions.get();
        b.onNodes(i -> () -> nodes.node(i).pauseWrites(ttls(2)), 0, 1);
        long start = System.nanoTime();
        CompletableFuture<Void> write = CompletableFuture.runAsync(() -> nodes.node(0).redis(r -> r.set("probe", "1")));
        write.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        Duration blocked = Duration.ofNanos(System.nanoTime() - start);
        int duringPause = w.acquisitions.get() - before;
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        log.info("F15: a write to a paused node waited {} ms; {} acquisitions meanwhile", blocked.toMillis(),
                duringPause);
        assertThat(blocked).as("writes really were paused").isGreaterThanOrEqualTo(ttls(1.5));
        assertThat(duringPause).as("acquisitions while 2 nodes refused writes").isPositive();
        b.asserted(FaultRow.Also.PROGRESS_UNDER_FAULT);
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
        b.awaitGone(b.closeLater(new NodeKeys(nodes)), "stall-orphan", Duration.ofSeconds(2),
                "F16: the failed attempt's keys are gone within 2 s of the resume");
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        return Measured.of(w);
    }
}
