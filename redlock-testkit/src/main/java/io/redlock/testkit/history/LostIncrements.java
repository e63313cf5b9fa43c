package io.redlock.testkit.history;

import java.util.List;
import java.util.Locale;

/** The lost-increment checker behind {@link Checkers#noLostIncrements}, which documents the semantics. */
final class LostIncrements {

    static final String CHECKER = "no lost increments";

    private LostIncrements() {
    }

    static CheckResult check(List<Event> history, long finalCounter) {
        long acknowledged = 0;
        long maybeApplied = 0;
        for (Event e : history) {
            if (e.op() != Op.WRITE) {
                continue;
            }
            if (e.outcome() == Outcome.OK && e.value() != null) {
                acknowledged++;
            } else if (e.outcome() == Outcome.UNKNOWN) {
                maybeApplied++;
            }
        }
        String numbers = String.format(Locale.ROOT, "final counter %d, acknowledged %d, maybe applied %d",
                finalCounter, acknowledged, maybeApplied);
        List<Violation> violations;
        if (finalCounter < acknowledged) {
            violations = List.of(new Violation(CHECKER,
                    "lost " + (acknowledged - finalCounter) + " acknowledged increments: " + numbers, List.of()));
        } else if (finalCounter > acknowledged + maybeApplied) {
            violations = List.of(new Violation(CHECKER,
                    "counter is above every write that may have been applied: " + numbers, List.of()));
        } else {
            violations = List.of();
        }
        return CheckResult.of(CHECKER, violations, CHECKER + ": " + numbers);
    }
}
