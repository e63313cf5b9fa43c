package io.redlock.faults;

import static io.redlock.faults.RowBench.PAST_A_VICTIM;
import static io.redlock.faults.RowBench.PATIENCE;
import static io.redlock.faults.RowBench.TTL;
import static io.redlock.faults.RowBench.VICTIM_TTL;
import static io.redlock.faults.RowBench.sleep;
import static io.redlock.faults.RowBench.ttls;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Lease;
import io.redlock.testkit.RedisNodes;
import java.time.Duration;

/** Rows F6–F9: the lock nodes' clocks jump forward, go back, or strobe (the clock-shift shim). */
final class ClockFaultRows {

    private ClockFaultRows() {
    }

    /** F6. */
    static Measured clockJumpOnOneOfExactlyThreeNodes(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        Workload w = b.workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        b.injectAgainstHolders("F6", w, holder -> {
            String[] keys = w.locks.lockKeys().toArray(String[]::new);
            nodes.node(3).redis(r -> r.del(keys)); // the holder got exactly nodes 0, 1 and 2
            nodes.node(4).redis(r -> r.del(keys));
            nodes.node(2).shiftClock(PAST_A_VICTIM);
        });
        nodes.node(2).shiftClock(Duration.ZERO);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    /** F7a. */
    static Measured clockJumpOnOneNodeOfFive(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        Workload w = b.workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        int jumps = 0;
        for (int attempt = 0; attempt < 20 && jumps < 3; attempt++) {
            Victims victim = w.schedule.holdNext(1, VICTIM_TTL);
            try {
                Lease holder = victim.awaitHolding(PATIENCE).get(0);
                if (!b.holdsEverywhere(holder)) {
                    continue; // decided on a majority while another attempt had some nodes: not this row's case
                }
                nodes.node(0).shiftClock(PAST_A_VICTIM); // node 0 forgets it: the holder keeps 4 of 5
                sleep(ttls(3)); // the other workers try meanwhile
                nodes.node(0).shiftClock(Duration.ZERO);
                jumps++;
            } finally {
                victim.letGo();
            }
        }
        assertThat(jumps).as("clock jumps while a holder had 5 of 5").isEqualTo(3);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    /** F7b. */
    static Measured clockJumpOnThreeNodes(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        Workload w = b.workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        b.injectAgainstAHolderOfEveryNode("F7b", w,
                holder -> b.onNodes(i -> () -> nodes.node(i).shiftClock(PAST_A_VICTIM), 0, 1, 2));
        b.onNodes(i -> () -> nodes.node(i).shiftClock(Duration.ZERO), 0, 1, 2);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    /** F8. */
    static Measured clockBackOnTwoNodes(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        Workload w = b.workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        nodes.node(0).shiftClock(Duration.ofSeconds(-60));
        nodes.node(1).shiftClock(Duration.ofSeconds(-60));
        w.awaitAcquisitions(8, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    /** F9. */
    static Measured clockStrobe(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        Workload w = b.workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        int before = w.record.acquisitions.get();
        long end = System.nanoTime() + ttls(5).toNanos();
        boolean forward = true;
        while (System.nanoTime() < end) {
            Duration offset = forward ? TTL : TTL.negated();
            b.onNodes(i -> () -> nodes.node(i).shiftClock(offset), 0, 1);
            forward = !forward;
            sleep(Duration.ofMillis(100));
        }
        int during = w.record.acquisitions.get() - before;
        b.onNodes(i -> () -> nodes.node(i).shiftClock(Duration.ZERO), 0, 1);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        assertThat(during).as("progress under the strobe").isPositive();
        b.asserted(FaultRow.Also.PROGRESS_UNDER_FAULT);
        return Measured.of(w);
    }
}
