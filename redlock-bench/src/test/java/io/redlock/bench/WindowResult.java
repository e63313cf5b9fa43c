package io.redlock.bench;

import org.HdrHistogram.Histogram;

/**
 * One measured window of one contestant: the latency (µs) of every pair that completed inside the window, the pairs
 * per second that makes, the CPU time per pair of the client JVM and of the Redis nodes (µs; NaN if unknown), the
 * bytes the client allocated per pair, the CPU the rest of the machine used meanwhile (in cores: 0.3 is 30 % of one
 * core; NaN if unknown), and
 * the pairs that failed during the warm-up or the window (with the first failure).
 */
record WindowResult(Histogram latencies, double pairsPerSecond, double clientCpuMicros, double serverCpuMicros,
        double allocatedBytes, double foreignCpuShare, long errors, String firstError) {
}
