package io.redlock.testkit.history;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/** A monotonic clock for tests, set by hand in milliseconds and read in nanos. */
final class FakeClock implements LongSupplier {

    private final AtomicLong nanos = new AtomicLong();

    /** {@code millis} milliseconds in nanos. */
    static long ms(long millis) {
        return millis * 1_000_000L;
    }

    /** Sets the clock to {@code millis} milliseconds and returns it. */
    FakeClock at(long millis) {
        nanos.set(ms(millis));
        return this;
    }

    @Override
    public long getAsLong() {
        return nanos.get();
    }
}
