package io.redlock;

/**
 * A monotonic time source in nanoseconds. The library reads time only from a ticker, never from the wall clock,
 * so validity arithmetic is immune to clock jumps on the client (SPEC R2) and testable with a fake ticker.
 *
 * <p>Values are meaningful only as differences between two reads of the same ticker.
 */
@FunctionalInterface
public interface Ticker {

    /** Returns the current reading in nanoseconds; only differences between readings are meaningful. */
    long read();

    /** The system ticker, backed by {@link System#nanoTime()}. */
    static Ticker system() {
        return System::nanoTime;
    }
}
