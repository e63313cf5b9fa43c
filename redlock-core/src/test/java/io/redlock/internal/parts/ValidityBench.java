package io.redlock.internal.parts;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** The validity arithmetic run once per acquisition and extension (SPEC R4). */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ValidityBench {

    // fields, not constants, so the JIT cannot fold the arithmetic away
    private long ttlNanos = TimeUnit.SECONDS.toNanos(10);
    private long elapsedNanos = TimeUnit.MILLISECONDS.toNanos(3);
    private double driftFactor = 0.01;

    @Benchmark
    public long validityNanos() {
        return Validity.validityNanos(ttlNanos, elapsedNanos, driftFactor);
    }
}
