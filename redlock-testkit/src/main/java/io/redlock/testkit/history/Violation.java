package io.redlock.testkit.history;

import java.util.List;
import java.util.Objects;

/**
 * One safety violation found by a checker.
 *
 * @param checker     the checker that found it, same as {@link CheckResult#checker()}
 * @param description what went wrong, in one line
 * @param events      the events that show it (may be empty when the evidence is a count, not specific events)
 */
public record Violation(String checker, String description, List<Event> events) {

    /** Requires all components and makes {@code events} an immutable copy. */
    public Violation {
        Objects.requireNonNull(checker, "checker");
        Objects.requireNonNull(description, "description");
        events = List.copyOf(events);
    }
}
