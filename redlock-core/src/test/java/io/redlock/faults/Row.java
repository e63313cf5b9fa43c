package io.redlock.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.history.CheckResult;
import io.redlock.testkit.history.Checkers.HoldMode;
import io.redlock.testkit.history.Checkers;
import io.redlock.testkit.history.Event;
import io.redlock.testkit.history.Op;
import io.redlock.testkit.history.Outcome;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks one row's histories and asserts what the row promises; the result is the row of the table. Written fluently
 * ({@link FaultRow#check()} builds it from the table): {@code Row.of("F0", "no fault").criticalSections(HOLDS)
 * .validity(HOLDS).atLeast(12).because("...").check(measured)}.
 */
final class Row {

    private final String id;
    private final String fault;
    private Expect criticalSections = Expect.HOLDS;
    private Expect validity = Expect.HOLDS;
    private int minAcquisitions = 1;
    private String explanation = "";

    private Row(String id, String fault) {
        this.id = id;
        this.fault = fault;
    }

    static Row of(String id, String fault) {
        return new Row(id, fault);
    }

    /** What the row asserts about critical sections (acquire → release, as the application saw them) overlapping. */
    Row criticalSections(Expect expect) {
        this.criticalSections = expect;
        return this;
    }

    /** What the row asserts about validity windows (acquire → validity deadline, cut by a release) overlapping. */
    Row validity(Expect expect) {
        this.validity = expect;
        return this;
    }

    /** The progress the row requires: this many acquisitions, and half as many acknowledged fenced increments. */
    Row atLeast(int acquisitions) {
        this.minAcquisitions = acquisitions;
        return this;
    }

    Row because(String explanation) {
        this.explanation = explanation;
        return this;
    }

    /** True if the plain history already shows overlapping critical sections and overlapping validity windows. */
    static boolean bothViolated(Workload workload) {
        List<Event> plain = workload.record.plainHistory.events();
        return !holders(workload, plain, HoldMode.CRITICAL_SECTION).valid()
                && !holders(workload, plain, HoldMode.VALIDITY).valid();
    }

    /**
     * Holds that must not overlap: every pair, except readers with readers, and no more permit holders at once than
     * permits (mutual exclusion when nothing is shared).
     */
    private static CheckResult holders(Workload workload, List<Event> plain, HoldMode mode) {
        return Checkers.holdersAtOnce(plain, mode, workload.locks.sharedHolds(), workload.locks.sharedAtOnce());
    }

    /** Checks a scenario's histories (see {@link #check(Workload, List, List)}). */
    RowResult check(Measured measured) {
        return check(measured.workload(), measured.extraPlain(), measured.extraFenced());
    }

    /** Checks the workload's histories plus {@code extraPlain} and {@code extraFenced} (e.g. a child JVM's). */
    RowResult check(Workload workload, List<Event> extraPlain, List<Event> extraFenced) {
        assertThat(workload.record.errors).as("%s: worker errors", id).isEmpty();
        List<Event> plain = concat(workload.record.plainHistory.events(), extraPlain);
        List<Event> fenced = concat(workload.record.fencedHistory.events(), extraFenced);
        CheckResult sections = holders(workload, plain, HoldMode.CRITICAL_SECTION);
        PausedHolders paused = new PausedHolders(plain, workload.locks.sharedHolds(), workload.locks.sharedAtOnce());
        List<io.redlock.testkit.history.Violation> lockOverlaps = sections.violations().stream()
                .filter(v -> !paused.explains(v)).toList();
        CheckResult windows = holders(workload, plain, HoldMode.VALIDITY);
        CheckResult order = Checkers.tokenOrder(fenced);
        long fencedCounter = workload.fencedCounter();
        CheckResult lost = Checkers.noLostIncrements(fenced, fencedCounter);
        long plainCounter = workload.plainCounter();
        RowResult result = new RowResult(id, fault, criticalSections, sections.violations().size(),
                sections.violations().size() - lockOverlaps.size(), validity,
                windows.violations().size(), order.violations().size(), staleRejected(fenced),
                Math.max(0, acknowledged(fenced) - fencedCounter), count(plain, Op.ACQUIRE, Outcome.OK),
                count(plain, Op.ACQUIRE, Outcome.FAIL), count(plain, Op.ACQUIRE, Outcome.UNKNOWN),
                acknowledged(fenced), Math.max(0, acknowledged(plain) - plainCounter), explanation);

        assertThat(order.valid()).as("%s: the storage accepted a stale token: %s", id, order.violations()).isTrue();
        assertThat(lost.valid()).as("%s: a fenced increment was lost: %s", id, lost.violations()).isTrue();
        assertThat(result.acquisitions()).as("%s: progress: acquisitions (%s)", id, result)
                .isGreaterThanOrEqualTo(minAcquisitions);
        // half the acquisitions write, as many of them as the workers that write
        int increments = (minAcquisitions * workload.locks.writers() / workload.workers() + 1) / 2;
        assertThat(result.fencedIncrements()).as("%s: progress: acknowledged fenced increments (%s)", id, result)
                .isGreaterThanOrEqualTo(increments);
        if (criticalSections == Expect.HOLDS) {
            // a holder paused past its validity overlaps the next one with no fault of the lock: fencing covers it
            assertThat(lockOverlaps).as("%s: critical sections must not overlap while every holder in the overlap is"
                    + " within its validity (%s)", id, sections.summary()).isEmpty();
        } else {
            expect(criticalSections, sections, "critical sections");
        }
        expect(validity, windows, "validity windows");
        return result;
    }

    private void expect(Expect expect, CheckResult result, String what) {
        switch (expect) {
            case HOLDS -> assertThat(result.valid()).as("%s: %s must not overlap: %s", id, what, result.violations())
                    .isTrue();
            case VIOLATED -> assertThat(result.valid()).as("%s: the fault must make %s overlap, and the checker see it"
                    + " (%s)", id, what, result.summary()).isFalse();
            case REPORTED -> { }
        }
    }

    private static int count(List<Event> events, Op op, Outcome outcome) {
        return (int) events.stream().filter(e -> e.op() == op && e.outcome() == outcome && !e.pending()).count();
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

    private static List<Event> concat(List<Event> a, List<Event> b) {
        List<Event> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
