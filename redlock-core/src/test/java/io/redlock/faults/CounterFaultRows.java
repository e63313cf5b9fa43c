package io.redlock.faults;

import static io.redlock.faults.RowBench.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.RedlockBuilder;
import io.redlock.RedlockConfig;
import io.redlock.internal.protocol.Keys;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.history.Event;
import io.redlock.testkit.history.Op;
import io.redlock.testkit.history.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.function.UnaryOperator;

/** Row F17: the fencing counters expire while the resource is idle, and come back above every token they issued. */
final class CounterFaultRows {

    /** The counters' idle horizon in this row: the shortest accepted. */
    static final Duration HORIZON = RedlockConfig.MIN_FENCE_COUNTER_TTL;
    /** How far 3 nodes' clocks go back once the counters expired: less than the time since their last write. */
    static final Duration STEP_BACK = Duration.ofSeconds(-1);

    private CounterFaultRows() {
    }

    /** F17. */
    static Measured countersExpireWhileIdle(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        RedisServer storage = b.storage();
        UnaryOperator<RedlockBuilder> horizon = builder -> builder.fenceCounterTtl(HORIZON);
        Workload before = b.workload(storage, "before-", true, horizon);
        before.awaitAcquisitions(4, PATIENCE);
        before.stop();
        long last = tokens(before.record.fencedHistory.events()).getMax();

        String counter = Workload.RESOURCE + Keys.FENCE_SUFFIX;
        await().atMost(HORIZON.multipliedBy(4)).pollInterval(Duration.ofMillis(50)).until(() ->
                nodes.servers().stream().allMatch(node -> node.get(counter) == null));
        b.onNodes(i -> () -> nodes.node(i).shiftClock(STEP_BACK), 0, 1, 2);
        Workload after = b.workload(storage, "after-", false, horizon);
        try {
            after.awaitAcquisitions(4, PATIENCE);
        } finally {
            after.stop();
            b.onNodes(i -> () -> nodes.node(i).shiftClock(Duration.ZERO), 0, 1, 2);
        }
        assertThat(tokens(after.record.fencedHistory.events()).getMin())
                .as("every token after the counters expired is above the last one before").isGreaterThan(last);
        b.asserted(FaultRow.Also.TOKENS_RISE_ACROSS_EXPIRY);
        return new Measured(after, before.record.plainHistory.events(), before.record.fencedHistory.events());
    }

    private static LongSummaryStatistics tokens(List<Event> fenced) {
        return fenced.stream().filter(e -> e.op() == Op.ACQUIRE && e.outcome() == Outcome.OK)
                .mapToLong(Event::token).summaryStatistics();
    }
}
