package io.redlock.bench;

/**
 * One contestant at one in-flight level over all rounds: the median of the rounds' pairs per second, percentiles
 * (µs) of the merged latencies of every measured window, and the median CPU time per pair (µs) of the client JVM and
 * of the Redis nodes, the median bytes the client allocated per pair, and the median CPU the rest of the machine used
 * meanwhile (in cores).
 */
record LevelResult(String contestant, String id, int nodes, int inFlight, double pairsPerSecond, long pairs,
        long p50Micros, long p99Micros, long p999Micros, double clientCpuMicros, double serverCpuMicros,
        double allocatedBytes, double foreignCpuShare, long errors,
        String firstError) {
}
