package io.redlock.bench;

import java.time.Duration;
import java.util.List;

/** Each check of the harness, turned off: a smoke test turns on the one it runs. */
final class SmokeSettings {

    static final BenchConfig.HeapSettings HEAP_OFF = new BenchConfig.HeapSettings(false, 0, 1, 1, 0);

    static final BenchConfig.CounterSettings COUNTERS_OFF =
            new BenchConfig.CounterSettings(false, 0, 0, Duration.ofSeconds(2), 1, 1, Duration.ZERO);

    static final BenchConfig.LeaseSettings LEASES_OFF =
            new BenchConfig.LeaseSettings(false, 0, Duration.ofSeconds(1), Duration.ZERO, 1);

    static final BenchConfig.ScalingSettings SCALING_OFF =
            new BenchConfig.ScalingSettings(false, 1, 1, 1, Duration.ZERO, 1);
    static final BenchConfig.CallSettings CALLS_OFF = new BenchConfig.CallSettings(false, 1, 1, false);

    static final BenchConfig.KindSettings KINDS_OFF = new BenchConfig.KindSettings(false, false, List.of(1),
            List.of(), 3, 2, 2, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1));

    private SmokeSettings() {
    }
}
