package io.redlock.bench;

/**
 * One contestant at one in-flight level over all rounds: the median of the rounds' pairs per second, percentiles
 * (µs) of the merged latencies of every measured window, and the median CPU time per pair (µs) of the client JVM and
 * of the Redis nodes, and the median bytes the client allocated per pair.
 */
record LevelResult(String contestant, String id, int nodes, int inFlight, double pairsPerSecond, long pairs,
        long p50Micros, long p99Micros, long p999Micros, double clientCpuMicros, double serverCpuMicros,
        double allocatedBytes, long errors,
        String firstError) {
}
