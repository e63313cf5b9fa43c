package io.redlock;

import io.redlock.internal.time.DurationText;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * How long to wait between two acquisition rounds: a delay drawn uniformly at random from {@code [min, max]}, so
 * contending clients desynchronize (SPEC R6). The number of rounds is bounded by the caller's maximum wait: a round is
 * started only if it begins before the wait runs out. The spec asks for a delay longer than one acquisition round
 * (at most the per-node timeout plus a release); the default does that for the default 50 ms timeout, and a custom
 * policy should too.
 *
 * <p>Immutable and thread-safe. Default: {@value #DEFAULT_MIN_MILLIS} ms to {@value #DEFAULT_MAX_MILLIS} ms.
 */
public final class RetryPolicy {

    /** Default lower bound of the delay, in milliseconds. */
    public static final long DEFAULT_MIN_MILLIS = 100;
    /** Default upper bound of the delay, in milliseconds. */
    public static final long DEFAULT_MAX_MILLIS = 300;

    private static final RetryPolicy DEFAULT =
            new RetryPolicy(Duration.ofMillis(DEFAULT_MIN_MILLIS), Duration.ofMillis(DEFAULT_MAX_MILLIS));

    private final Duration min;
    private final Duration max;
    private final long minNanos;
    private final long spanNanos;

    private RetryPolicy(Duration min, Duration max) {
        this.min = min;
        this.max = max;
        this.minNanos = min.toNanos();
        this.spanNanos = max.toNanos() - minNanos;
    }

    /** The default policy: uniform in [100 ms, 300 ms]. */
    public static RetryPolicy defaults() {
        return DEFAULT;
    }

    /**
     * A delay uniform in {@code [min, max]}.
     *
     * @throws RedlockConfigException if {@code min} is not positive or {@code max < min}
     */
    public static RetryPolicy uniform(Duration min, Duration max) {
        Objects.requireNonNull(min, "min");
        Objects.requireNonNull(max, "max");
        if (min.isNegative() || min.isZero()) {
            throw new RedlockConfigException(List.of("retry.minDelay"), "retry min delay must be positive, was "
                    + DurationText.of(min));
        }
        if (max.compareTo(min) < 0) {
            throw new RedlockConfigException(List.of("retry.maxDelay", "retry.minDelay"), "retry max delay must be >= min delay ("
                    + DurationText.of(min) + "), was " + DurationText.of(max));
        }
        return new RetryPolicy(min, max);
    }

    public Duration minDelay() {
        return min;
    }

    public Duration maxDelay() {
        return max;
    }

    /** Draws the next delay in nanoseconds from {@code random}. */
    public long nextDelayNanos(RandomGenerator random) {
        return spanNanos == 0 ? minNanos : minNanos + random.nextLong(spanNanos + 1);
    }

    @Override
    public String toString() {
        return "RetryPolicy.uniform(" + min + ", " + max + ")";
    }
}
