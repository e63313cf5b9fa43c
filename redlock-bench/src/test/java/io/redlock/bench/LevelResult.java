package io.redlock.bench;

/**
 * One contestant at one in-flight level over all rounds: the median of the rounds' pairs per second, and percentiles
 * (µs) of the merged latencies of every measured window.
 */
record LevelResult(String contestant, String id, int nodes, int inFlight, double pairsPerSecond, long pairs,
        long p50Micros, long p99Micros, long p999Micros, long errors, String firstError) {
}
