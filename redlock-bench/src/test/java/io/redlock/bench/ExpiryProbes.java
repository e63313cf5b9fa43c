package io.redlock.bench;

import io.redlock.Lease;
import io.redlock.LossReason;
import io.redlock.Redlock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * How late a lease's expiry is noticed: leases taken without keep-alive, each with a loss listener, whose validity
 * runs out while the check watches; each notice records how long after the lease's {@link Lease#validUntil()} it came
 * (the library's ticker is {@code System.nanoTime}). The library promises the notice at the end of validity, within
 * one 10 ms timer tick when the CPU is not saturated.
 */
final class ExpiryProbes {

    /** What the notices of one group of probes said. */
    record Lateness(long probes, long noticed, long maxMicros, long p99Micros, long p50Micros) {

        String text() {
            return String.format("%,d of %,d expiries noticed; lateness p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                    noticed, probes, p50Micros / 1000.0, p99Micros / 1000.0, maxMicros / 1000.0);
        }
    }

    private final Histogram lateness = new Histogram(TimeUnit.MINUTES.toMicros(5), 3);
    private final String prefix;
    private final List<Lease> leases = new ArrayList<>();

    private ExpiryProbes(String prefix) {
        this.prefix = prefix;
    }

    /** Takes {@code count} leases of {@code ttl} named {@code prefix…}; their expiry is watched from now. */
    static ExpiryProbes take(Redlock redlock, String prefix, int count, Duration ttl) {
        ExpiryProbes probes = new ExpiryProbes(prefix);
        List<CompletableFuture<Lease>> taken = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            taken.add(redlock.tryAcquireAsync(prefix + i, ttl).toCompletableFuture()
                    .thenApply(lease -> lease.orElseThrow(() -> new IllegalStateException("probe not acquired"))));
        }
        for (CompletableFuture<Lease> lease : taken) {
            Lease probe = lease.join();
            probe.onLost(probes::noticed);
            probes.leases.add(probe);
        }
        return probes;
    }

    private void noticed(Lease lease, LossReason reason) {
        long late = System.nanoTime() - lease.validUntil();
        synchronized (lateness) {
            lateness.recordValue(Math.max(0, TimeUnit.NANOSECONDS.toMicros(late)));
        }
    }

    /** The earliest validity end among the probes, as a {@code System.nanoTime} reading. */
    long firstValidUntil() {
        return leases.stream().mapToLong(Lease::validUntil).min().orElse(System.nanoTime());
    }

    /** The latest validity end among the probes, as a {@code System.nanoTime} reading. */
    long lastValidUntil() {
        return leases.stream().mapToLong(Lease::validUntil).max().orElse(System.nanoTime());
    }

    /** Waits (at most {@code patience} past the last validity end) for every notice, then releases the probes. */
    Lateness await(Duration patience) throws InterruptedException {
        long deadline = lastValidUntil() + patience.toNanos();
        while (count() < leases.size() && System.nanoTime() - deadline < 0) {
            TimeUnit.MILLISECONDS.sleep(10);
        }
        leases.forEach(lease -> lease.releaseAsync().exceptionally(lostAlready -> null));
        synchronized (lateness) {
            return new Lateness(leases.size(), lateness.getTotalCount(), lateness.getMaxValue(),
                    lateness.getValueAtPercentile(99), lateness.getValueAtPercentile(50));
        }
    }

    private long count() {
        synchronized (lateness) {
            return lateness.getTotalCount();
        }
    }

    /** Whether {@code lease} is one of these probes. */
    boolean owns(Lease lease) {
        return lease.resource().startsWith(prefix);
    }
}
