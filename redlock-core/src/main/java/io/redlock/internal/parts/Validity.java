package io.redlock.internal.parts;

/**
 * Validity arithmetic of SPEC R4: {@code validity = ttl - elapsed - drift} with
 * {@code drift = ttl * driftFactor + 2 ms}. A lock counts only while the validity is positive. Pure; all values in
 * nanoseconds.
 */
public final class Validity {

    /** The fixed part of the drift allowance (the reference implementations' "+ 2 ms"). */
    static final long FIXED_DRIFT_NANOS = 2_000_000L;

    private Validity() {
    }

    /** The drift allowance for a TTL. */
    static long driftNanos(long ttlNanos, double driftFactor) {
        return (long) (ttlNanos * driftFactor) + FIXED_DRIFT_NANOS;
    }

    /** Validity left after an operation that started {@code elapsedNanos} ago; positive means usable. */
    public static long validityNanos(long ttlNanos, long elapsedNanos, double driftFactor) {
        return ttlNanos - elapsedNanos - driftNanos(ttlNanos, driftFactor);
    }

    /**
     * The validity left right after an extension of {@code ttlNanos} whose round took the whole per-node timeout:
     * an extension must start before the remaining validity drops below this, or the next one is due at once.
     */
    public static long afterSlowestRoundNanos(long ttlNanos, double driftFactor, long nodeTimeoutNanos) {
        return validityNanos(ttlNanos, nodeTimeoutNanos, driftFactor);
    }

    /**
     * The shortest whole-millisecond TTL that leaves a validity after the drift allowance and an operation that took
     * {@code elapsedNanos}.
     */
    static long shortestTtlMillis(long elapsedNanos, double driftFactor) {
        long millis = Math.max(1, (long) ((elapsedNanos + FIXED_DRIFT_NANOS) / (1 - driftFactor) / 1_000_000));
        while (validityNanos(millis * 1_000_000, elapsedNanos, driftFactor) <= 0) { // at most a few steps
            millis++;
        }
        return millis;
    }

    /** The ticker reading at which a lock taken with an operation started at {@code startNanos} stops being valid. */
    public static long validUntil(long startNanos, long ttlNanos, double driftFactor) {
        return startNanos + ttlNanos - driftNanos(ttlNanos, driftFactor);
    }
}
