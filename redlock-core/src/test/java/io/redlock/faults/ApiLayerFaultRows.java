package io.redlock.faults;

import static io.redlock.faults.RowBench.PATIENCE;
import static io.redlock.faults.RowBench.sleep;
import static io.redlock.faults.RowBench.ttls;
import static io.redlock.faults.RowBench.uris;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.TcpProxy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Rows F36 and F37: faults seen through the layers above the protocol, a re-entrant {@code Lock} whose lease is lost
 * inside a nested critical section, and minimum holds whose re-expiry the nodes answer late or not at all.
 */
final class ApiLayerFaultRows {

    /** The per-node timeout of F37's clients; the slow nodes answer later than that. */
    private static final Duration NODE_TIMEOUT = Duration.ofMillis(100);
    private static final Duration LATE = Duration.ofMillis(150);
    /** Minimum holds from 1 ms to three node timeouts. */
    private static final long[] KEEP_MILLIS = {1, 50, 100, 199, 300};

    private ApiLayerFaultRows() {
    }

    /**
     * F36. A {@link NestedHolder} takes the workers' lock and stays in its critical section until its lease was lost
     * and a worker has written since: first a fixed lease that runs out while it stalls, then a lease kept alive by the
     * watchdog, lost while 3 nodes are stopped (SIGSTOP) past its validity. Each time, its nested {@code lock()} throws
     * and its stale write is refused.
     */
    static Measured nestedLockAfterLoss(RowBench b) throws Exception {
        RedisServer storage = b.storage();
        Workload w = b.workload(storage, "worker-", true, UnaryOperator.identity());
        w.awaitAcquisitions(2, PATIENCE);
        b.connectedProbeBeforeStalls(); // resumes the stopped nodes if the row fails
        NestedHolder holder = b.closeLater(new NestedHolder(b.nodes.uris(), storage, w.record));

        Lease fixed = holder.enter(RowBench.TTL);
        awaitLoss(fixed);
        w.awaitWrites(1, PATIENCE);
        holder.assertBrokenUntilUnwound(fixed);

        Lease kept = holder.enter(null);
        b.onNodes(i -> () -> b.nodes.node(i).pause(), 0, 1, 2);
        try {
            awaitLoss(kept);
        } finally {
            b.onNodes(i -> () -> b.nodes.node(i).resume(), 0, 1, 2);
        }
        w.awaitWrites(1, PATIENCE);
        holder.assertBrokenUntilUnwound(kept);
        b.asserted(FaultRow.Also.BROKEN_UNTIL_UNWOUND);

        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    private static void awaitLoss(Lease lease) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (lease.lossReason().isEmpty()) {
            assertThat(System.nanoTime()).as("the holder's lease is lost within %s", PATIENCE).isLessThan(deadline);
            sleep(Duration.ofMillis(5));
        }
    }

    /**
     * F37. Minimum holds from 1 ms to three node timeouts ({@code Lease.releaseAfter}), each while 2 nodes answer later
     * than the per-node timeout, and again with 3 of them slow for the re-expiry round alone (the holder acquired on
     * all 5, so no majority confirms the re-expiry). After each, no node may drop the key and no other client may get
     * the lock before the minimum has passed since {@code releaseAfter} was called. A check that sees the key gone or
     * the lock taken after that moment proves nothing and is not made (the row may pause); one that sees either
     * before it is a violation.
     */
    static Measured minimumHolds(RowBench b) throws Exception {
        List<TcpProxy> proxies = b.proxies();
        Workload w = b.workload(uris(proxies));
        w.awaitAcquisitions(2, PATIENCE);
        Redlock holder = b.closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(NODE_TIMEOUT).build());
        Redlock other = b.closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(NODE_TIMEOUT).build());
        NodeKeys keys = b.closeLater(new NodeKeys(b.nodes));
        for (long millis : KEEP_MILLIS) {
            Duration keep = Duration.ofMillis(millis);
            MinHold round = new MinHold(b, proxies, keys, holder, other, keep);
            round.keptForTheMinimum("min-hold-slow-2-" + millis, 2, 2);
            round.keptForTheMinimum("min-hold-slow-3-" + millis, 0, 3);
        }
        b.asserted(FaultRow.Also.MIN_HOLD_KEPT);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    /** One minimum hold of {@code keep}, tried with some nodes slow. */
    private record MinHold(RowBench b, List<TcpProxy> proxies, NodeKeys keys, Redlock holder, Redlock other,
            Duration keep) {

        /**
         * Acquires {@code resource} (a TTL of 30 s) with the first {@code slowWhileAcquiring} nodes slow, waits until
         * every node has the key, makes the first {@code slowWhileReleasing} slow, calls {@code releaseAfter(keep)},
         * heals the proxies, then reads every node directly and tries with {@code other} until it gets the lock.
         */
        void keptForTheMinimum(String resource, int slowWhileAcquiring, int slowWhileReleasing)
                throws InterruptedException {
            proxies.subList(0, slowWhileAcquiring).forEach(p -> p.delay(LATE));
            Lease lease = holder.acquire(resource, Duration.ofSeconds(30), PATIENCE).orElseThrow();
            keys.awaitOnAtLeast(resource, b.nodes.size(), PATIENCE);
            proxies.forEach(TcpProxy::heal);
            proxies.subList(0, slowWhileReleasing).forEach(p -> p.delay(LATE));
            long start = System.nanoTime();
            lease.releaseAfter(keep);
            proxies.forEach(TcpProxy::heal);
            for (RedisServer node : b.nodes) {
                boolean held = node.get(resource) != null;
                long seen = System.nanoTime();
                assertThat(held || seen - start >= keep.toNanos()).as("%s: %s lost the key %d ms after"
                        + " releaseAfter(%s)", resource, node.address(), (seen - start) / 1_000_000, keep).isTrue();
            }
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (true) {
                Optional<Lease> next = other.tryAcquire(resource, ttls(1));
                long returned = System.nanoTime();
                if (next.isPresent()) {
                    next.get().release();
                    assertThat(returned - start).as("%s: another client got the lock %d ms after releaseAfter(%s)",
                            resource, (returned - start) / 1_000_000, keep).isGreaterThanOrEqualTo(keep.toNanos());
                    return;
                }
                assertThat(returned).as("%s: the lock is free again within %s", resource, PATIENCE)
                        .isLessThan(deadline);
            }
        }
    }
}
