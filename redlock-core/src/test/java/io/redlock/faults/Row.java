package io.redlock.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.history.CheckResult;
import io.redlock.testkit.history.Checkers;
import io.redlock.testkit.history.Event;
import io.redlock.testkit.history.Op;
import io.redlock.testkit.history.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Checks one row's histories, records its result for the table, and asserts what the row promises. */
final class Row {

    static final List<RowResult> RESULTS = new CopyOnWriteArrayList<>();

    private Row() {
    }

    /** True if the plain history already shows two overlapping critical sections. */
    static boolean violated(Workload workload, List<Event> extra) {
        return !Checkers.mutualExclusion(concat(workload.plainHistory.events(), extra),
                Checkers.HoldMode.CRITICAL_SECTION).valid();
    }

    static RowResult check(String id, String fault, Expect expect, String explanation, Workload workload) {
        return check(id, fault, expect, explanation, workload, List.of(), List.of());
    }

    static RowResult check(String id, String fault, Expect expect, String explanation, Workload workload,
            List<Event> extraPlain, List<Event> extraFenced) {
        List<Event> plain = concat(workload.plainHistory.events(), extraPlain);
        List<Event> fenced = concat(workload.fencedHistory.events(), extraFenced);
        CheckResult exclusion = Checkers.mutualExclusion(plain, Checkers.HoldMode.CRITICAL_SECTION);
        CheckResult order = Checkers.tokenOrder(fenced);
        long fencedCounter = workload.fencedCounter();
        CheckResult lost = Checkers.noLostIncrements(fenced, fencedCounter);
        long plainCounter = workload.plainCounter();
        int acquisitions = (int) plain.stream().filter(e -> e.op() == Op.ACQUIRE && e.outcome() == Outcome.OK)
                .count();
        RowResult result = new RowResult(id, fault, expect, exclusion.violations().size(), order.violations().size(),
                staleRejected(fenced), Math.max(0, acknowledged(fenced) - fencedCounter), acquisitions,
                Math.max(0, acknowledged(plain) - plainCounter), explanation);
        RESULTS.add(result);

        assertThat(workload.errors).as("worker errors").isEmpty();
        assertThat(order.valid()).as("%s: the storage accepted a stale token: %s", id, order.violations()).isTrue();
        assertThat(lost.valid()).as("%s: a fenced increment was lost: %s", id, lost.violations()).isTrue();
        switch (expect) {
            case HOLDS -> assertThat(exclusion.valid()).as("%s: mutual exclusion must hold: %s", id,
                    exclusion.violations()).isTrue();
            case VIOLATED -> assertThat(exclusion.valid()).as("%s: the fault must break mutual exclusion", id)
                    .isFalse();
            case REPORTED -> { }
        }
        return result;
    }

    /** Fenced reads and writes the storage refused because it had seen a newer token. */
    private static int staleRejected(List<Event> fenced) {
        return (int) fenced.stream().filter(e -> (e.op() == Op.WRITE || e.op() == Op.READ)
                && e.outcome() == Outcome.FAIL && e.note() != null && e.note().startsWith("stale")).count();
    }

    private static long acknowledged(List<Event> events) {
        return events.stream().filter(e -> e.op() == Op.WRITE && e.outcome() == Outcome.OK && e.value() != null)
                .count();
    }

    static List<Event> concat(List<Event> a, List<Event> b) {
        List<Event> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
