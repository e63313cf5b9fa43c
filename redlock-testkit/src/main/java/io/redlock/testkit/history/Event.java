package io.redlock.testkit.history;

import java.util.Objects;

/**
 * One completed (or never-completed) operation.
 *
 * @param id          position in invocation order, unique within one {@link History}
 * @param process     who did it, e.g. {@code "worker-1"}
 * @param op          what was done
 * @param lease       the lock lease's unique value, or {@code null} if the operation has none
 * @param token       the fencing token, or {@code -1} if none
 * @param invokedAt   monotonic nanos when the operation was invoked
 * @param completedAt monotonic nanos when it completed; {@link Long#MAX_VALUE} while pending or if it never completed
 * @param outcome     how it ended; a pending operation is {@link Outcome#UNKNOWN}
 * @param validUntil  for an {@link Outcome#OK} {@link Op#ACQUIRE} or {@link Op#EXTEND}, the monotonic nanos until
 *                    which the lease is valid; otherwise {@code -1}
 * @param value       for {@link Op#READ} the value read, for {@link Op#WRITE} the value written; otherwise
 *                    {@code null}
 * @param note        free text, e.g. why it failed; may be {@code null}
 */
public record Event(long id, String process, Op op, String lease, long token, long invokedAt, long completedAt,
                    Outcome outcome, long validUntil, Long value, String note) {

    /** The {@link #completedAt} of an operation that has not completed. */
    public static final long NEVER = Long.MAX_VALUE;

    /** Checks that the required components are present and that the operation does not complete before it starts. */
    public Event {
        Objects.requireNonNull(process, "process");
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(outcome, "outcome");
        if (completedAt < invokedAt) {
            throw new IllegalArgumentException(
                    "event " + id + " completed at " + completedAt + " before it was invoked at " + invokedAt);
        }
    }

    /** True if the operation never completed ({@link #completedAt} is {@link #NEVER}). */
    public boolean pending() {
        return completedAt == NEVER;
    }

    /** True if this is an {@link Op#ACQUIRE} or {@link Op#EXTEND} that succeeded. */
    boolean grantsValidity() {
        return outcome == Outcome.OK && (op == Op.ACQUIRE || op == Op.EXTEND);
    }

    /** A short human-readable label, e.g. {@code "WRITE #12 by worker-1 (lease abc, token 7)"}. */
    String label() {
        return op + " #" + id + " by " + process + " (lease " + lease + ", token " + token + ")";
    }
}
