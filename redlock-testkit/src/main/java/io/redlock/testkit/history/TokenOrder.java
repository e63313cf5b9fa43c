package io.redlock.testkit.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The token-order checker behind {@link Checkers#tokenOrder}, which documents the semantics. */
final class TokenOrder {

    static final String CHECKER = "token order";

    private TokenOrder() {
    }

    static CheckResult check(List<Event> history) {
        List<Event> writes = new ArrayList<>();
        for (Event e : history) {
            if (e.op() == Op.WRITE && e.outcome() == Outcome.OK && e.token() >= 0) {
                writes.add(e);
            }
        }
        List<Violation> violations = new ArrayList<>(wentDown(writes));
        violations.addAll(sharedTokens(writes));
        String summary = String.format(Locale.ROOT, "%s: %d violations among %d fenced writes", CHECKER,
                violations.size(), writes.size());
        return CheckResult.of(CHECKER, violations, summary);
    }

    /** Writes whose token is below one accepted by a write that completed before they were invoked. */
    private static List<Violation> wentDown(List<Event> writes) {
        Event[] byCompletion = writes.toArray(Event[]::new);
        Arrays.sort(byCompletion, Comparator.comparingLong(Event::completedAt).thenComparingLong(Event::id));
        long[] completedAt = new long[byCompletion.length];
        Event[] maxSoFar = new Event[byCompletion.length]; // the highest-token write among byCompletion[0..i]
        for (int i = 0; i < byCompletion.length; i++) {
            completedAt[i] = byCompletion[i].completedAt();
            Event previous = i == 0 ? null : maxSoFar[i - 1];
            maxSoFar[i] = previous != null && previous.token() >= byCompletion[i].token() ? previous : byCompletion[i];
        }
        List<Event> byInvocation = new ArrayList<>(writes);
        byInvocation.sort(Comparator.comparingLong(Event::invokedAt).thenComparingLong(Event::id));
        List<Violation> violations = new ArrayList<>();
        for (Event b : byInvocation) {
            int before = countBelow(completedAt, b.invokedAt());
            if (before == 0) {
                continue;
            }
            Event a = maxSoFar[before - 1];
            if (b.token() < a.token()) {
                violations.add(new Violation(CHECKER, String.format(Locale.ROOT,
                        "token went down: %s accepted token %d after %s had accepted token %d", b.label(), b.token(),
                        a.label(), a.token()), List.of(a, b)));
            }
        }
        return violations;
    }

    /** The number of entries of the sorted array {@code values} that are strictly less than {@code limit}. */
    private static int countBelow(long[] values, long limit) {
        int lo = 0;
        int hi = values.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (values[mid] < limit) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** One violation per pair of distinct leases (a null lease counts as one) that had the same token accepted. */
    private static List<Violation> sharedTokens(List<Event> writes) {
        Map<Long, Map<String, Event>> firstWriteByLease = new TreeMap<>();
        List<Event> byInvocation = new ArrayList<>(writes);
        byInvocation.sort(Comparator.comparingLong(Event::invokedAt).thenComparingLong(Event::id));
        for (Event e : byInvocation) {
            firstWriteByLease.computeIfAbsent(e.token(), t -> new LinkedHashMap<>()).putIfAbsent(e.lease(), e);
        }
        List<Violation> violations = new ArrayList<>();
        for (Map<String, Event> leases : firstWriteByLease.values()) {
            List<Event> firsts = new ArrayList<>(leases.values());
            for (int i = 0; i < firsts.size(); i++) {
                for (int j = i + 1; j < firsts.size(); j++) {
                    Event a = firsts.get(i);
                    Event b = firsts.get(j);
                    violations.add(new Violation(CHECKER, String.format(Locale.ROOT,
                            "token accepted from two leases: token %d from lease %s (%s, write #%d) and lease %s "
                                    + "(%s, write #%d)", a.token(), a.lease(), a.process(), a.id(), b.lease(),
                            b.process(), b.id()), List.of(a, b)));
                }
            }
        }
        return violations;
    }
}
