package io.redlock.testkit.history;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Thread-safe recorder of operations.
 *
 * <p>A worker calls {@link #invoke} just before it starts an operation and then exactly one completion method of the
 * returned {@link Call} when it learns the result: {@link Call#ok()}, {@link Call#okValid(long)},
 * {@link Call#okAcquired(String, long, long)},
 * {@link Call#okRead(Long)}, {@link Call#fail(String)} (definitely not applied) or {@link Call#unknown(String)}
 * (timed out: maybe applied). Timestamps come from the monotonic clock given to the constructor, which must be safe to
 * call from several threads. Ids are assigned in invocation order, and invocation timestamps are taken in that same
 * order, so {@link #events()} is sorted by both.
 */
public final class History {

    private final LongSupplier clock;
    private final List<Call> calls = new ArrayList<>();

    /** A history stamped with {@code monotonicNanos}, e.g. {@code System::nanoTime} or a test's fake clock. */
    public History(LongSupplier monotonicNanos) {
        this.clock = Objects.requireNonNull(monotonicNanos, "monotonicNanos");
    }

    /**
     * Records the invocation of an operation, stamped now, and returns the handle to complete it with.
     *
     * @param process who does it, e.g. {@code "worker-1"}
     * @param op      what is done
     * @param lease   the lock lease's unique value, or {@code null}
     * @param token   the fencing token, or {@code -1} if none
     * @param value   for {@link Op#WRITE} the value written, otherwise usually {@code null}
     */
    public Call invoke(String process, Op op, String lease, long token, Long value) {
        Objects.requireNonNull(process, "process");
        Objects.requireNonNull(op, "op");
        synchronized (calls) {
            Call call = new Call(calls.size(), process, op, lease, token, value, clock.getAsLong());
            calls.add(call);
            return call;
        }
    }

    /**
     * An immutable snapshot of every recorded operation, in invocation order. Calls not completed yet appear with
     * outcome {@link Outcome#UNKNOWN} and completedAt {@link Long#MAX_VALUE}.
     */
    public List<Event> events() {
        List<Call> snapshot;
        synchronized (calls) {
            snapshot = List.copyOf(calls);
        }
        List<Event> events = new ArrayList<>(snapshot.size());
        for (Call call : snapshot) {
            events.add(call.event());
        }
        return List.copyOf(events);
    }

    /**
     * Handle on one invoked operation; exactly one completion wins, later ones are ignored.
     *
     * <p>Every completion method returns the event that won, so a losing call returns the earlier completion.
     */
    public final class Call {

        private final long id;
        private final String process;
        private final Op op;
        private final String lease;
        private final long token;
        private final Long value;
        private final long invokedAt;
        private final AtomicReference<Event> completion = new AtomicReference<>();

        private Call(long id, String process, Op op, String lease, long token, Long value, long invokedAt) {
            this.id = id;
            this.process = process;
            this.op = op;
            this.lease = lease;
            this.token = token;
            this.value = value;
            this.invokedAt = invokedAt;
        }

        /**
         * {@link Op#ACQUIRE} success for an acquisition invoked before its lease existed (with a {@code null} lease):
         * completes it with the lease value, fencing token and validity deadline learned from the result.
         *
         * @throws IllegalStateException if this operation is not an ACQUIRE
         */
        public Event okAcquired(String acquiredLease, long acquiredToken, long validUntil) {
            if (op != Op.ACQUIRE) {
                throw new IllegalStateException("okAcquired is for ACQUIRE, not " + op);
            }
            Objects.requireNonNull(acquiredLease, "acquiredLease");
            return complete(Outcome.OK, validUntil, value, null, acquiredLease, acquiredToken);
        }

        /** Generic success: the operation was applied. */
        public Event ok() {
            return complete(Outcome.OK, -1, value, null);
        }

        /**
         * {@link Op#ACQUIRE} or {@link Op#EXTEND} success with the lease's validity deadline.
         *
         * @param validUntil monotonic nanos, on this history's clock, until which the lease is valid
         * @throws IllegalStateException if this operation is not an ACQUIRE or EXTEND
         */
        public Event okValid(long validUntil) {
            if (op != Op.ACQUIRE && op != Op.EXTEND) {
                throw new IllegalStateException("okValid is for ACQUIRE or EXTEND, not " + op);
            }
            return complete(Outcome.OK, validUntil, value, null);
        }

        /**
         * {@link Op#READ} success with the value read.
         *
         * @throws IllegalStateException if this operation is not a READ
         */
        public Event okRead(Long valueRead) {
            if (op != Op.READ) {
                throw new IllegalStateException("okRead is for READ, not " + op);
            }
            return complete(Outcome.OK, -1, valueRead, null);
        }

        /** The operation definitely was not applied, because of {@code why}. */
        public Event fail(String why) {
            return complete(Outcome.FAIL, -1, value, why);
        }

        /** The operation may have been applied (e.g. it timed out), because of {@code why}. */
        public Event unknown(String why) {
            return complete(Outcome.UNKNOWN, -1, value, why);
        }

        /** The winning completion, or a pending event (UNKNOWN, completedAt {@link Long#MAX_VALUE}) if none yet. */
        public Event event() {
            Event done = completion.get();
            return done != null ? done
                    : new Event(id, process, op, lease, token, invokedAt, Event.NEVER, Outcome.UNKNOWN, -1, value,
                            "never completed");
        }

        private Event complete(Outcome outcome, long validUntil, Long eventValue, String note) {
            return complete(outcome, validUntil, eventValue, note, lease, token);
        }

        private Event complete(Outcome outcome, long validUntil, Long eventValue, String note, String eventLease,
                long eventToken) {
            if (completion.get() != null) {
                return completion.get();
            }
            long now = Math.max(clock.getAsLong(), invokedAt);
            Event event = new Event(id, process, op, eventLease, eventToken, invokedAt, now, outcome, validUntil,
                    eventValue, note);
            return completion.compareAndSet(null, event) ? event : completion.get();
        }
    }
}
