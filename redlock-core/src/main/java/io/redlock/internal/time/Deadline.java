package io.redlock.internal.time;

import io.redlock.Ticker;
import java.time.Duration;

/**
 * The end of a wait on the engine's {@link Ticker}. Ticker readings are compared by difference, which holds for spans
 * up to 2^63 ns; a wait of more than {@link #LONGEST} (such as {@code ChronoUnit.FOREVER.getDuration()}) never ends.
 * Immutable.
 */
public final class Deadline {

    /** The longest wait that ends: 2^62 ns, about 146 years. */
    static final long LONGEST = Long.MAX_VALUE / 2;

    private final Ticker ticker;
    private final long at;
    private final boolean bounded;

    private Deadline(Ticker ticker, long at, boolean bounded) {
        this.ticker = ticker;
        this.at = at;
        this.bounded = bounded;
    }

    /** The deadline {@code wait} from now; negative waits end at once. */
    public static Deadline after(Ticker ticker, Duration wait) {
        long now = ticker.read();
        long nanos;
        try {
            nanos = Math.max(0, wait.toNanos());
        } catch (ArithmeticException tooLong) {
            nanos = Long.MAX_VALUE;
        }
        return nanos > LONGEST ? new Deadline(ticker, now, false) : new Deadline(ticker, now + nanos, true);
    }

    /** A deadline that never comes. */
    public static Deadline never(Ticker ticker) {
        return new Deadline(ticker, 0, false);
    }

    /** Nanoseconds left, at least 0; {@link Long#MAX_VALUE} if this deadline never comes. */
    public long nanosLeft() {
        if (!bounded) {
            return Long.MAX_VALUE;
        }
        return Math.max(0, at - ticker.read());
    }

    /** True once the deadline has come (never for an unbounded one). */
    public boolean passed() {
        return bounded && at - ticker.read() <= 0;
    }

    /** True if this deadline ever comes. */
    public boolean bounded() {
        return bounded;
    }
}
