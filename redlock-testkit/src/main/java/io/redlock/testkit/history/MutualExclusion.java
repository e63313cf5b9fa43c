package io.redlock.testkit.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Predicate;

/**
 * The mutual-exclusion checker behind {@link Checkers#mutualExclusion} and {@link Checkers#holdersAtOnce}, which
 * document the semantics.
 */
final class MutualExclusion {

    private MutualExclusion() {
    }

    /** One lease's holding interval, with the ACQUIRE event that started it. */
    private record Hold(Event acquire, long start, long end) {
        String lease() {
            return acquire.lease();
        }
    }

    /** What is known about one lease, gathered in a single pass. */
    private static final class Lease {
        Event acquire;
        long maxValidUntil = -1;
        long firstRelease = Long.MAX_VALUE;
        long lastUse = Long.MIN_VALUE;

        void add(Event e) {
            if (e.op() == Op.ACQUIRE && e.outcome() == Outcome.OK
                    && (acquire == null || e.completedAt() < acquire.completedAt())) {
                acquire = e;
            }
            if (e.grantsValidity()) {
                maxValidUntil = Math.max(maxValidUntil, e.validUntil());
            }
            if (e.op() == Op.RELEASE) {
                firstRelease = Math.min(firstRelease, e.invokedAt());
            }
            if ((e.op() == Op.READ || e.op() == Op.WRITE || e.op() == Op.EXTEND) && !e.pending()) {
                lastUse = Math.max(lastUse, e.completedAt());
            }
        }

        Hold hold(Checkers.HoldMode mode) {
            long start = acquire.completedAt();
            boolean released = firstRelease != Long.MAX_VALUE;
            long end = switch (mode) {
                case VALIDITY -> released ? Math.min(maxValidUntil, firstRelease) : maxValidUntil;
                case CRITICAL_SECTION -> released ? firstRelease : Math.max(lastUse, start);
            };
            return new Hold(acquire, start, end);
        }
    }

    static CheckResult check(List<Event> history, Checkers.HoldMode mode) {
        return check(history, mode, acquire -> false, 1);
    }

    /**
     * Holds that overlap where at least one is exclusive, and shared holds more than {@code sharedAtOnce} at once
     * (counted at the start of each shared hold, where the count can only have grown).
     */
    static CheckResult check(List<Event> history, Checkers.HoldMode mode, Predicate<Event> shared, int sharedAtOnce) {
        String checker = "mutual exclusion (" + (mode == Checkers.HoldMode.VALIDITY ? "validity" : "critical section")
                + ")";
        Map<String, Lease> leases = new HashMap<>();
        for (Event e : history) {
            if (e.lease() != null) {
                leases.computeIfAbsent(e.lease(), k -> new Lease()).add(e);
            }
        }
        List<Hold> holds = new ArrayList<>();
        for (Lease lease : leases.values()) {
            if (lease.acquire != null) {
                holds.add(lease.hold(mode));
            }
        }
        holds.sort(Comparator.comparingLong(Hold::start).thenComparingLong(h -> h.acquire().id()));

        // Sweep by start: every still-active hold (end > b.start) started no later than b, so it overlaps b.
        List<Violation> violations = new ArrayList<>();
        PriorityQueue<Hold> active = new PriorityQueue<>(Comparator.comparingLong(Hold::end));
        int mostShared = 0;
        for (Hold b : holds) {
            if (b.end() <= b.start()) {
                continue;
            }
            while (!active.isEmpty() && active.peek().end() <= b.start()) {
                active.poll();
            }
            List<Hold> overlapping = new ArrayList<>(active);
            overlapping.sort(Comparator.comparingLong(Hold::start).thenComparingLong(h -> h.acquire().id()));
            boolean bShared = shared.test(b.acquire());
            List<Hold> sharing = new ArrayList<>();
            for (Hold a : overlapping) {
                if (bShared && shared.test(a.acquire())) {
                    sharing.add(a);
                } else {
                    violations.add(new Violation(checker, describe(a, b), List.of(a.acquire(), b.acquire())));
                }
            }
            if (bShared) {
                mostShared = Math.max(mostShared, sharing.size() + 1);
                if (sharing.size() + 1 > sharedAtOnce) {
                    List<Event> acquires = new ArrayList<>();
                    sharing.forEach(a -> acquires.add(a.acquire()));
                    acquires.add(b.acquire());
                    violations.add(new Violation(checker, String.format(Locale.ROOT,
                            "%d shared holders at once (at most %d): %s", acquires.size(), sharedAtOnce,
                            acquires.stream().map(Event::lease).toList()), acquires));
                }
            }
            active.add(b);
        }
        String summary = String.format(Locale.ROOT, "%s: %d overlaps among %d leases", checker, violations.size(),
                holds.size()) + (mostShared > 0 ? String.format(Locale.ROOT, ", at most %d shared at once",
                        mostShared) : "");
        return CheckResult.of(checker, violations, summary);
    }

    private static String describe(Hold a, Hold b) {
        long overlap = Math.min(a.end(), b.end()) - Math.max(a.start(), b.start());
        return String.format(Locale.ROOT, "lease %s (%s, token %d) and lease %s (%s, token %d) overlap by %.3f ms",
                a.lease(), a.acquire().process(), a.acquire().token(), b.lease(), b.acquire().process(),
                b.acquire().token(), overlap / 1e6);
    }
}
