package io.redlock.faults;

import static io.redlock.faults.RowBench.PATIENCE;
import static io.redlock.faults.RowBench.PROBE_TIMEOUT;
import static io.redlock.faults.RowBench.TTL;
import static io.redlock.faults.RowBench.sleep;
import static io.redlock.faults.RowBench.ttls;
import static io.redlock.faults.RowBench.uris;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.SetArgs;
import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.RedlockConfigException;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.TcpProxy;
import io.redlock.testkit.history.Op;
import io.redlock.testkit.history.Outcome;
import java.time.Duration;
import java.util.List;

/** Rows F10–F13 and F34: faults between client and nodes, through a TcpProxy per node (partitions, lost replies, latency). */
final class NetworkFaultRows {

    private NetworkFaultRows() {
    }

    /** F10. */
    static Measured partitions(RowBench b) throws Exception {
        List<TcpProxy> proxies = b.proxies();
        Workload w = b.workload(uris(proxies));
        w.awaitAcquisitions(2, PATIENCE);
        proxies.get(0).blackhole(true);
        proxies.get(1).blackhole(true);
        w.awaitAcquisitions(3, PATIENCE);
        b.asserted(FaultRow.Also.PROGRESS_UNDER_FAULT);
        proxies.get(2).blackhole(true);
        long partitioned = System.nanoTime();
        sleep(ttls(3));
        long during = w.record.acquiredBetween(partitioned, System.nanoTime());
        proxies.forEach(TcpProxy::heal);
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        assertThat(during).as("acquisitions with 3 of 5 nodes partitioned away").isZero();
        b.asserted(FaultRow.Also.NO_LOCK_WITHOUT_MAJORITY);
        return Measured.of(w);
    }

    /** F11. */
    static Measured repliesDropped(RowBench b) throws Exception {
        List<TcpProxy> proxies = b.proxies();
        Workload w = b.workload(uris(proxies));
        w.awaitAcquisitions(2, PATIENCE);
        Redlock probe = b.closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(PROBE_TIMEOUT).build());
        for (int i = 0; i < 3; i++) {
            proxies.get(i).dropReplies(true);
        }
        assertThat(probe.tryAcquire("orphan-check", Duration.ofSeconds(30))).isEmpty();
        b.asserted(FaultRow.Also.NO_LOCK_WITHOUT_MAJORITY);
        sleep(ttls(2));
        proxies.forEach(TcpProxy::heal);
        // the SETs were applied but their replies lost: the library must have released them on every node
        b.awaitGone(b.closeLater(new NodeKeys(b.nodes)), "orphan-check", ttls(10),
                "F11: the attempt without replies released its keys");
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    /** F12. */
    static Measured slowNodes(RowBench b) throws Exception {
        List<TcpProxy> proxies = b.proxies();
        Workload w = b.workload(uris(proxies));
        w.awaitAcquisitions(2, PATIENCE);
        proxies.get(0).delay(ttls(0.4));
        proxies.get(1).delay(ttls(0.4));
        w.awaitAcquisitions(6, PATIENCE);
        w.stop();
        proxies.forEach(TcpProxy::heal);

        // validity is reported from the real elapsed time: a majority behind a TTL each way, with a lease of 10 TTLs
        // and a node timeout (5 TTLs) far above the round trip
        Duration lockTtl = ttls(10);
        Duration latency = TTL;
        Redlock patient = b.closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(ttls(5)).build());
        patient.acquire("warm-up", lockTtl, PATIENCE).orElseThrow().release();
        proxies.get(2).delay(latency);
        proxies.get(0).delay(latency);
        proxies.get(1).delay(latency);
        long start = System.nanoTime();
        Lease slow = patient.acquire("slow", lockTtl, PATIENCE).orElseThrow();
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        Duration drift = Duration.ofMillis(lockTtl.toMillis() / 100 + 2);
        assertThat(slow.remainingValidity()).isLessThanOrEqualTo(lockTtl.minus(latency.multipliedBy(2)).minus(drift));
        assertThat(elapsed).isGreaterThanOrEqualTo(latency.multipliedBy(2));
        slow.release();
        proxies.forEach(TcpProxy::heal);

        aTtlThatAnswersInTimeCouldExhaustIsRefused(b, proxies);
        return Measured.of(w);
    }

    /**
     * A setting in which every node could answer within the per-node timeout and the round still reach TTL − drift
     * (lock TTL 10×TTL, per-node timeout 9×TTL, drift allowance 0.45: TTL − drift is 5.5×TTL) is refused up front,
     * naming the numbers, and sends nothing: a round whose replies all come in time always leaves a validity. (An
     * acquisition that reaches TTL − drift through a pause of the client is refused and released: F2.)
     */
    private static void aTtlThatAnswersInTimeCouldExhaustIsRefused(RowBench b, List<TcpProxy> proxies) {
        Redlock redlock = b.closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(ttls(9))
                .driftFactor(0.45).build());
        assertThatThrownBy(() -> redlock.tryAcquire("never-valid", ttls(10)))
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("must leave a validity");
        assertThat(b.nodes.servers()).allMatch(node -> node.get("never-valid") == null);
    }

    /** F13. */
    static Measured extendUnderPartitionAndAfterExpiry(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        List<TcpProxy> proxies = b.proxies();
        Workload w = b.workload(uris(proxies));
        w.schedule.extendEachHold();
        w.awaitAcquisitions(2, PATIENCE);
        // a holder stops before its extension; 3 nodes are partitioned away while it waits; then it extends
        Victims victim = w.schedule.holdNext(1, RowBench.VICTIM_TTL);
        try {
            victim.awaitHolding(PATIENCE);
            for (int i = 0; i < 3; i++) {
                proxies.get(i).blackhole(true);
            }
        } finally {
            victim.letGo();
        }
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(anExtensionFailed(w))
                .as("a holder's extension under the partition failed").isTrue());
        proxies.forEach(TcpProxy::heal);
        await().atMost(PATIENCE).untilAsserted(() -> assertThat(w.record.plainHistory.events())
                .as("extensions with a majority succeeded")
                .anyMatch(e -> e.op() == Op.EXTEND && e.outcome() == Outcome.OK));

        Redlock holder = b.closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(PROBE_TIMEOUT).build());
        Lease lease = holder.acquire("extended", ttls(2), PATIENCE).orElseThrow();
        for (int i = 0; i < 3; i++) {
            proxies.get(i).blackhole(true);
        }
        assertThat(lease.extend(ttls(5))).as("extend without a majority").isFalse();
        proxies.forEach(TcpProxy::heal);
        await().atMost(PATIENCE).until(() -> !lease.isValid()
                && nodes.servers().stream().allMatch(n -> n.get("extended") == null));
        assertThat(holder.extend("extended", lease.value(), ttls(5))).as("extend after expiry").isEmpty();
        assertThat(nodes.servers().stream().allMatch(n -> n.get("extended") == null)).as("never re-created").isTrue();
        b.asserted(FaultRow.Also.EXTEND_NEEDS_MAJORITY);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    /** F34. */
    static Measured connectionsReset(RowBench b) throws Exception {
        List<TcpProxy> proxies = b.proxies();
        Workload w = b.workload(uris(proxies));
        w.awaitAcquisitions(2, PATIENCE);
        for (int i = 0; i < 10; i++) { // commands in flight fail, and one whose write failed is sent again
            proxies.get(0).reset();
            proxies.get(1).reset();
            sleep(ttls(0.3));
        }
        // a node that refuses the acquire because our value is there already (the copy sent again after the first
        // one landed): the acquire reaches node 0 late, after the test put the value there; the release still
        // deletes it there
        Redlock probe = b.closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(ttls(10)).build());
        probe.tryAcquire("warm-up", Duration.ofSeconds(60)).orElseThrow().release();
        proxies.get(0).delay(ttls(2));
        Lease lease = probe.tryAcquire("refused", Duration.ofSeconds(60)).orElseThrow();
        b.nodes.node(0).redis(r -> r.set("refused", lease.value(), SetArgs.Builder.px(60_000)));
        probe.status("refused"); // answered behind the acquire on node 0: its refusal is in
        proxies.get(0).heal();
        lease.release();
        b.awaitGone(b.closeLater(new NodeKeys(b.nodes)), "refused", ttls(10),
                "F34: the release deleted the key on the node that refused the acquire");
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    private static boolean anExtensionFailed(Workload w) {
        return w.record.plainHistory.events().stream()
                .anyMatch(e -> e.op() == Op.EXTEND && e.outcome() != Outcome.OK && !e.pending());
    }
}
