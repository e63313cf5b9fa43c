package io.redlock.bench;

import static io.redlock.bench.SmokeSettings.CALLS_OFF;
import static io.redlock.bench.SmokeSettings.COUNTERS_OFF;
import static io.redlock.bench.SmokeSettings.HEAP_OFF;
import static io.redlock.bench.SmokeSettings.KINDS_OFF;
import static io.redlock.bench.SmokeSettings.LEASES_OFF;
import static io.redlock.bench.SmokeSettings.SCALING_OFF;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness's checks, tiny: many leases kept by batched extensions, the cost per server and shard and per call,
 * fencing counters that go when idle while tokens rise. Beside {@link BenchSmokeIT}, in a test JVM of their own.
 */
class CheckSmokeIT {

    @Test
    void theLeaseCheckHoldsManyLeasesWithBatchedExtensions(@TempDir Path out) throws Exception {
        BenchConfig config = new BenchConfig(Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(1),
                Contestants.KNOWN, false, List.of(2), Duration.ZERO, Duration.ZERO, out,
                HEAP_OFF, COUNTERS_OFF,
                new BenchConfig.LeaseSettings(true, 2_000, Duration.ofSeconds(5), Duration.ofSeconds(6), 64),
                SCALING_OFF, CALLS_OFF, KINDS_OFF);

        LeaseCheck.Result result = Bench.leases(config, line -> { });

        assertThat(result.lost()).isZero();
        assertThat(result.errors()).isZero();
        assertThat(result.keptAliveAtEnd()).isEqualTo(2_000);
        assertThat(result.burst().released()).isEqualTo(1_000);
        assertThat(result.burst().lostDuring() + result.burst().lostWhileKept()).as("leases lost").isZero();
        assertThat(result.burst().keptAliveAtEnd()).isEqualTo(1_000);
        assertThat(result.burst().lateDuring().noticed()).as("expiries noticed").isEqualTo(1_000);
        assertThat(result.burst().lateQuiet().noticed()).as("expiries noticed").isEqualTo(1_000);
        assertThat(result.extensionRounds()).as("every lease extended at least once").isGreaterThanOrEqualTo(2_000);
        assertThat(result.opsPerCall(0)).as("extensions batched per node").isGreaterThan(4);
        assertThat(out.resolve("leases.md")).exists();
    }

    @Test
    void theShardCostCheckMeasuresEveryServerAndShard(@TempDir Path out) throws Exception {
        BenchConfig config = new BenchConfig(Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(1),
                Contestants.KNOWN, false, List.of(2), Duration.ZERO, Duration.ZERO, out,
                HEAP_OFF, COUNTERS_OFF, LEASES_OFF,
                new BenchConfig.ScalingSettings(true, 3, 2, 1, Duration.ofSeconds(1), 16), CALLS_OFF, KINDS_OFF);

        ScalingCheck.Result result = Bench.scaling(config, line -> { });

        assertThat(result.phases()).hasSize(2).allSatisfy(phase -> {
            // served pairs; how many timed out on a loaded machine is a figure of the run (logged), not a property
            assertThat(phase.pairs()).isPositive();
            assertThat(phase.meanCpuMicrosPerPair()).isPositive();
        });
        assertThat(result.of("cluster shard").get(0).cpuMicrosPerPair()).hasSize(3 * 2);
        assertThat(out.resolve("scaling.md")).exists();
    }

    @Test
    void theCallCostCheckTimesEveryOperationOnEveryNodeBesideItsFloor(@TempDir Path out) throws Exception {
        BenchConfig config = new BenchConfig(Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(1),
                Contestants.KNOWN, false, List.of(2), Duration.ZERO, Duration.ZERO, out,
                HEAP_OFF, COUNTERS_OFF, LEASES_OFF, SCALING_OFF, new BenchConfig.CallSettings(true, 50, 1, false), KINDS_OFF);

        CallCostCheck.Result result = Bench.calls(config, line -> { });

        assertThat(result.byRound()).singleElement().asList().hasSize(6 + 2 * PairKinds.KINDS.size());
        result.byRound().get(0).forEach(cost -> {
            assertThat(cost.micros()).as(cost.operation()).hasSize(Bench.NODES).allSatisfy(micros ->
                    assertThat(micros).isFinite());
            if (!cost.derived()) { // a difference of two phases may go negative on a busy machine: a figure, no more
                assertThat(cost.micros()).as(cost.operation()).allSatisfy(micros -> assertThat(micros).isPositive());
            }
            assertThat(cost.floorMicros()).as(cost.floor()).hasSize(Bench.NODES);
        });
        assertThat(out.resolve("calls.md")).exists();
    }

    @Test
    void theCounterCheckSeesCountersGoAndTokensRise(@TempDir Path out) throws Exception {
        BenchConfig config = new BenchConfig(Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(1),
                Contestants.KNOWN, false, List.of(2), Duration.ZERO, Duration.ZERO, out,
                HEAP_OFF,
                new BenchConfig.CounterSettings(true, 2_000, 500, Duration.ofSeconds(2), 16, 1_000,
                        Duration.ofSeconds(60)),
                LEASES_OFF, SCALING_OFF, CALLS_OFF, KINDS_OFF);

        CounterCheck.Result result = Bench.counters(config, line -> { });

        assertThat(result.errors()).isZero();
        // how many counters the snapshot after the load finds is a figure of the run, not a property: with a 2 s
        // horizon, counters granted early expire before it when the load itself takes longer on a busy machine
        assertThat(result.loaded()).hasSize(Bench.NODES);
        assertThat(result.cleared()).as("back to the baseline: %s", result.after()).isTrue();
        assertThat(result.sampled()).isPositive();
        assertThat(result.tokensNotHigher()).isZero();
        assertThat(result.fencedBytesPerLock()).allSatisfy(bytes -> assertThat(bytes).isPositive());
        assertThat(out.resolve("counters.md")).exists();
    }
}
