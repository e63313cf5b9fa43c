package io.redlock.bench;

/**
 * The contended scenario for one contestant: acquisitions per second inside the measured window against the ideal
 * (one hold after the other, no gap), and the time from starting to wait until acquired (µs). {@code timeouts} are
 * waits that gave up.
 */
record ContendedResult(String contestant, int clients, long acquisitions, double acquisitionsPerSecond,
        double idealPerSecond, long waitP50Micros, long waitP99Micros, long timeouts) {
}
