package io.redlock.internal.parts;

import io.redlock.internal.Engine;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/** A new lease value (20 bytes from SecureRandom, base64url); one instance per Redlock, as in {@link Engine}. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class LockValuesBench {

    private final LockValues values = new LockValues();

    @Benchmark
    public String next() {
        return values.next();
    }
}
