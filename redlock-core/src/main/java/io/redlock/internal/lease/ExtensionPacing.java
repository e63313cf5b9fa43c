package io.redlock.internal.lease;

import java.util.random.RandomGenerator;

/**
 * When a {@link Watchdog} runs its next extension round (SPEC R8), as arithmetic over ticker readings and an injected
 * random source: when the remaining validity reaches the threshold — up to an eighth of it earlier, at random, so
 * leases taken together do not all extend in the same instant — and never sooner than a given pause; after a round
 * that found no majority, again at a quarter of the threshold or a third of the validity left, whichever is sooner,
 * but never sooner than the minimum interval between rounds.
 */
final class ExtensionPacing {

    private ExtensionPacing() {
    }

    /**
     * Nanoseconds from {@code now} until the next round for a lease valid until {@code validUntil}, extended when
     * {@code thresholdNanos} of validity is left, and not before {@code minDelayNanos}.
     */
    static long nextRound(long now, long validUntil, long thresholdNanos, long minDelayNanos, RandomGenerator random) {
        long spread = random.nextLong(thresholdNanos / 8 + 1);
        return Math.max(minDelayNanos, validUntil - thresholdNanos - spread - now);
    }

    /** The least pause before trying again after a round without a majority, with {@code leftNanos} of validity. */
    static long afterFailedRound(long minIntervalNanos, long thresholdNanos, long leftNanos) {
        return Math.max(minIntervalNanos, Math.min(thresholdNanos / 4, leftNanos / 3));
    }
}
