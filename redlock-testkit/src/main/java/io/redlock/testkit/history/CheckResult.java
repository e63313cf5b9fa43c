package io.redlock.testkit.history;

import java.util.List;
import java.util.Objects;

/**
 * The verdict of one checker on one history.
 *
 * @param checker    the checker's name, e.g. {@code "mutual exclusion (validity)"}
 * @param valid      true if no violation was found
 * @param violations what was found; empty if and only if {@code valid}
 * @param summary    one plain line for a report, e.g. {@code "mutual exclusion (validity): 0 overlaps among 120 leases"}
 */
public record CheckResult(String checker, boolean valid, List<Violation> violations, String summary) {

    /** Requires all components, makes {@code violations} an immutable copy and checks it agrees with {@code valid}. */
    public CheckResult {
        Objects.requireNonNull(checker, "checker");
        Objects.requireNonNull(summary, "summary");
        violations = List.copyOf(violations);
        if (valid != violations.isEmpty()) {
            throw new IllegalArgumentException("valid=" + valid + " but " + violations.size() + " violations");
        }
    }

    /** A result for {@code checker} that is valid exactly when {@code violations} is empty. */
    static CheckResult of(String checker, List<Violation> violations, String summary) {
        return new CheckResult(checker, violations.isEmpty(), violations, summary);
    }
}
