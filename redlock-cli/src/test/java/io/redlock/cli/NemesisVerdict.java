package io.redlock.cli;

import io.redlock.testkit.history.CheckResult;
import io.redlock.testkit.history.Checkers;
import io.redlock.testkit.history.Checkers.HoldMode;
import io.redlock.testkit.history.Event;
import io.redlock.testkit.history.History;
import io.redlock.testkit.history.Op;
import io.redlock.testkit.history.Outcome;
import io.redlock.testkit.history.Violation;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The checks of one resource's history after a randomized run, and what they found.
 *
 * <ul>
 *   <li>Holders at once in validity windows (the lock's own promise): no exclusive hold beside another hold, no more
 *       shared holds than the kind allows. An overlap is <em>excused</em> when a fault docs/GUARANTEES.md says the
 *       lock does not survive ({@link NemesisFault.Kind#unsafe}) began between the first of its attempts and the
 *       grant of the last: that is the fault being detected. Any other overlap is a violation.</li>
 *   <li>Token order at the storage and no lost fenced increment: violations whatever the faults.</li>
 *   <li>Overlaps of critical sections (a holder working past its validity, as a paused process does): counted, and
 *       what fencing is for.</li>
 * </ul>
 */
final class NemesisVerdict {

    final String resource;
    final List<Violation> unexcused = new ArrayList<>();
    final List<Violation> excused = new ArrayList<>();
    final List<CheckResult> storage = new ArrayList<>();
    final int criticalSectionOverlaps;
    private final List<Event> events;

    /**
     * Checks {@code history} of {@code resource}, whose holds {@code shared} accepts share up to {@code sharedAtOnce}
     * at once, whose counter ended at {@code counter} (null: nothing fenced is written there), against
     * {@code faults}.
     */
    NemesisVerdict(String resource, History history, Predicate<Event> shared, int sharedAtOnce, Long counter,
            List<NemesisFault> faults) {
        this.resource = resource;
        this.events = history.events();
        CheckResult validity = Checkers.holdersAtOnce(events, HoldMode.VALIDITY, shared, sharedAtOnce);
        for (Violation violation : validity.violations()) {
            (excused(violation, faults) ? excused : unexcused).add(violation);
        }
        criticalSectionOverlaps = Checkers.holdersAtOnce(events, HoldMode.CRITICAL_SECTION, shared, sharedAtOnce)
                .violations().size();
        if (counter != null) {
            storage.add(Checkers.tokenOrder(events));
            storage.add(Checkers.noLostIncrements(events, counter));
        }
    }

    private static boolean excused(Violation violation, List<NemesisFault> faults) {
        long first = violation.events().stream().mapToLong(Event::invokedAt).min().orElse(Long.MAX_VALUE);
        long granted = violation.events().stream().mapToLong(Event::completedAt).max().orElse(Long.MIN_VALUE);
        return faults.stream().anyMatch(f -> f.kind().unsafe && f.start() - first >= 0 && granted - f.start() >= 0);
    }

    /** True if nothing the guarantees claim was violated. */
    boolean held() {
        return unexcused.isEmpty() && storage.stream().allMatch(CheckResult::valid);
    }

    /** Attempts of processes named {@code prefix}* by outcome: ok, refused, unknown. */
    long[] attempts(String prefix) {
        long[] counts = new long[3];
        for (Event e : events) {
            if (e.op() == Op.ACQUIRE && e.process().startsWith(prefix)) {
                counts[e.outcome() == Outcome.OK && !e.pending() ? 0 : e.outcome() == Outcome.FAIL ? 1 : 2]++;
            }
        }
        return counts;
    }

    /** Fenced writes of processes named {@code prefix}* the storage accepted, and refused. */
    long[] writes(String prefix) {
        long[] counts = new long[2];
        for (Event e : events) {
            if (e.op() == Op.WRITE && e.process().startsWith(prefix) && !e.pending()) {
                if (e.outcome() == Outcome.OK) {
                    counts[0]++;
                } else if (e.outcome() == Outcome.FAIL) {
                    counts[1]++;
                }
            }
        }
        return counts;
    }

    /** One line per finding, for the report and a failure's message. */
    String findings() {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%s: %d overlaps in validity windows not excused, %d excused by an"
                + " unsafe fault; %d critical-section overlaps%n", resource, unexcused.size(), excused.size(),
                criticalSectionOverlaps));
        storage.forEach(result -> out.append("  ").append(result.summary()).append('\n'));
        unexcused.forEach(v -> out.append("  NOT EXCUSED: ").append(v.description()).append('\n'));
        storage.stream().flatMap(r -> r.violations().stream())
                .forEach(v -> out.append("  VIOLATED: ").append(v.description()).append('\n'));
        return out.toString();
    }
}
