package io.redlock.bench;

import java.util.List;

/**
 * One contestant at one in-flight level over all rounds: the median of the rounds' pairs per second (each round's in
 * {@code roundPairsPerSecond}, in the order run, for the spread and for ratios taken round by round), percentiles
 * (µs) of the merged latencies of every measured window, and the median CPU time per pair (µs) of the client JVM and
 * of the Redis nodes, the median bytes the client allocated per pair, and the median CPU the rest of the machine used
 * meanwhile (in cores).
 */
record LevelResult(String contestant, String id, int nodes, int inFlight, double pairsPerSecond,
        List<Double> roundPairsPerSecond, long pairs,
        long p50Micros, long p99Micros, long p999Micros, double clientCpuMicros, double serverCpuMicros,
        double allocatedBytes, double foreignCpuShare, long errors,
        String firstError) {

    LevelResult {
        roundPairsPerSecond = List.copyOf(roundPairsPerSecond);
    }
}
