package io.redlock.faults;

import io.redlock.Lease;
import io.redlock.NodeFailure;
import io.redlock.testkit.history.History;
import io.redlock.testkit.history.Op;
import io.redlock.testkit.history.Outcome;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * What the workers of a {@link Workload} record: the plain and the fenced history, the acquisitions (of each kind),
 * the acknowledged fenced increments, the current holder, the latest node failure and the workers' errors; and the
 * counts a row asks of them.
 */
final class WorkRecord {

    final History plainHistory = new History(System::nanoTime);
    final History fencedHistory = new History(System::nanoTime);
    final AtomicInteger acquisitions = new AtomicInteger();
    /** Of the acquisitions, those of several resources at once. */
    final AtomicInteger severalAcquisitions = new AtomicInteger();
    /** Of the acquisitions, read locks. */
    final AtomicInteger readerAcquisitions = new AtomicInteger();
    /** Of the acquisitions, permits of a semaphore. */
    final AtomicInteger permitAcquisitions = new AtomicInteger();
    /** Fenced increments the storage acknowledged. */
    final AtomicInteger fencedWrites = new AtomicInteger();
    final AtomicReference<Lease> holder = new AtomicReference<>();
    /** The latest node failure any worker saw, for the message when progress stalls. */
    final AtomicReference<NodeFailure> lastNodeFailure = new AtomicReference<>();
    final List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());

    /** How many acquisitions succeeded that were begun at or after {@code nanos} ({@link System#nanoTime()}). */
    long acquiredSince(long nanos) {
        return acquiredBetween(nanos, Long.MAX_VALUE);
    }

    /**
     * How many acquisitions succeeded that were begun at or after {@code from} and recorded as done before {@code to}
     * (both {@link System#nanoTime()}): what a fault lasting from {@code from} to {@code to} let through. One the library
     * granted before {@code to} but the worker recorded later (a pause) is not counted; one granted later never is.
     */
    long acquiredBetween(long from, long to) {
        return plainHistory.events().stream().filter(e -> e.op() == Op.ACQUIRE && !e.pending()
                && e.outcome() == Outcome.OK && e.invokedAt() >= from
                && e.completedAt() < to).count();
    }

    /** The acquire attempts so far by outcome, e.g. {@code "12 ok, 3 failed, 0 unknown"}. */
    String attempts() {
        return attempts(Long.MIN_VALUE);
    }

    /**
     * The acquire attempts begun at or after {@code nanos} ({@link System#nanoTime()}) by outcome, e.g.
     * {@code "12 ok, 3 failed, 0 unknown, 1 pending"}.
     */
    String attempts(long nanos) {
        Map<String, Long> counts = plainHistory.events().stream()
                .filter(e -> e.op() == Op.ACQUIRE && (nanos == Long.MIN_VALUE || e.invokedAt() - nanos >= 0))
                .collect(Collectors.groupingBy(e -> e.pending() ? "pending" : e.outcome().name(),
                        Collectors.counting()));
        String made = counts.getOrDefault(Outcome.OK.name(), 0L) + " ok, "
                + counts.getOrDefault(Outcome.FAIL.name(), 0L) + " failed, "
                + counts.getOrDefault(Outcome.UNKNOWN.name(), 0L) + " unknown";
        return nanos == Long.MIN_VALUE ? made : made + ", " + counts.getOrDefault("pending", 0L) + " pending";
    }
}
