package io.redlock.testkit;

import java.time.Duration;
import java.util.Objects;

/**
 * The faults a {@link TcpProxy} injects right now, read by every connection's threads for each chunk they move.
 * Thread-safe.
 */
final class ProxyFaults {

    private volatile long delayNanos;
    private volatile boolean dropReplies;
    private volatile boolean blackhole;

    /** Latency added to each direction for the bytes read from now on. */
    void delay(Duration eachWay) {
        Objects.requireNonNull(eachWay, "eachWay");
        if (eachWay.isNegative()) {
            throw new IllegalArgumentException("delay must not be negative, was " + eachWay);
        }
        delayNanos = eachWay.toNanos();
    }

    long delayNanos() {
        return delayNanos;
    }

    void dropReplies(boolean on) {
        dropReplies = on;
    }

    /** Whether bytes going this way ({@code replies}: from the server to the client) are discarded right now. */
    boolean discarding(boolean replies) {
        return replies && dropReplies;
    }

    void blackhole(boolean on) {
        blackhole = on;
    }

    /** Whether nothing is delivered right now, either way. */
    boolean blackholed() {
        return blackhole;
    }

    /** No delay, no dropped replies, no blackhole. */
    void heal() {
        delayNanos = 0;
        dropReplies = false;
        blackhole = false;
    }
}
