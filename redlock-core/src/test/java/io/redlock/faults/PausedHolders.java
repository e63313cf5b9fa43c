package io.redlock.faults;

import io.redlock.testkit.history.Event;
import io.redlock.testkit.history.Op;
import io.redlock.testkit.history.Outcome;
import io.redlock.testkit.history.Violation;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Tells an overlap of critical sections that a pause explains from one the lock let happen. Threads and processes
 * pause: a holder that runs past its validity (a GC pause, a descheduled thread) overlaps the next holder's critical
 * section with no fault of the lock, and only fencing protects the data then. Such an overlap begins after the earlier
 * holder's validity ran out. An overlap that begins while the holds in it were all within their validity, more of
 * them than the lock allows, is the lock's.
 */
final class PausedHolders {

    private final Map<String, Long> validUntil = new HashMap<>();
    private final Predicate<Event> shared;
    private final int sharedAtOnce;

    /** For the holds of {@code history}: {@code shared} tells the shared ones, at most {@code sharedAtOnce} at once. */
    PausedHolders(List<Event> history, Predicate<Event> shared, int sharedAtOnce) {
        this.shared = shared;
        this.sharedAtOnce = sharedAtOnce;
        for (Event e : history) {
            if (e.lease() != null && e.outcome() == Outcome.OK && (e.op() == Op.ACQUIRE || e.op() == Op.EXTEND)) {
                validUntil.merge(e.lease(), e.validUntil(), Math::max);
            }
        }
    }

    /**
     * True if the overlap {@code v} (of the critical-section checker: its events are the holds' ACQUIREs, the latest
     * last) began after enough of the earlier holds' validity had run out that the holds still valid were allowed
     * together.
     */
    boolean explains(Violation v) {
        List<Event> holds = v.events();
        Event last = holds.get(holds.size() - 1);
        long began = last.completedAt();
        List<Event> stillValid = holds.subList(0, holds.size() - 1).stream()
                .filter(a -> validUntil.getOrDefault(a.lease(), Long.MAX_VALUE) > began).toList();
        boolean allShared = holds.stream().allMatch(shared);
        return allShared ? stillValid.size() + 1 <= sharedAtOnce : stillValid.isEmpty();
    }
}
