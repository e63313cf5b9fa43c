package io.redlock.bench;

import org.HdrHistogram.Histogram;

/**
 * One measured window of one contestant: the latency (µs) of every pair that completed inside the window, the pairs
 * per second that makes, and the pairs that failed during the warm-up or the window (with the first failure).
 */
record WindowResult(Histogram latencies, double pairsPerSecond, long errors, String firstError) {
}
