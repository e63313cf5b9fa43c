package io.redlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole harness, tiny: every contestant, the blocking ones too, runs pairs without errors and the table and charts get written. */
class BenchSmokeIT {

    private static final BenchConfig.CounterSettings COUNTERS_OFF =
            new BenchConfig.CounterSettings(false, 0, 0, Duration.ofSeconds(2), 1, 1, Duration.ZERO);

    private static final BenchConfig.LeaseSettings LEASES_OFF =
            new BenchConfig.LeaseSettings(false, 0, Duration.ofSeconds(1), Duration.ZERO, 1);

    private static final BenchConfig.ScalingSettings SCALING_OFF =
            new BenchConfig.ScalingSettings(false, 1, 1, 1, Duration.ZERO, 1);

    private static final BenchConfig.KindSettings KINDS_OFF = new BenchConfig.KindSettings(false, false, List.of(1),
            List.of(), 3, 2, 2, Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1));

    @Test
    void theLeaseCheckHoldsManyLeasesWithBatchedExtensions(@TempDir Path out) throws Exception {
        BenchConfig config = new BenchConfig(Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(1),
                Contestants.KNOWN, false, List.of(2), Duration.ZERO, Duration.ZERO, out,
                new BenchConfig.HeapSettings(false, 0, 1, 1, 0), COUNTERS_OFF,
                new BenchConfig.LeaseSettings(true, 2_000, Duration.ofSeconds(5), Duration.ofSeconds(6), 64), SCALING_OFF,
                KINDS_OFF);

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
                new BenchConfig.HeapSettings(false, 0, 1, 1, 0), COUNTERS_OFF, LEASES_OFF,
                new BenchConfig.ScalingSettings(true, 3, 2, 1, Duration.ofSeconds(1), 16), KINDS_OFF);

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
    void theCounterCheckSeesCountersGoAndTokensRise(@TempDir Path out) throws Exception {
        BenchConfig config = new BenchConfig(Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(1),
                Contestants.KNOWN, false, List.of(2), Duration.ZERO, Duration.ZERO, out,
                new BenchConfig.HeapSettings(false, 0, 1, 1, 0),
                new BenchConfig.CounterSettings(true, 2_000, 500, Duration.ofSeconds(2), 16, 1_000, Duration.ofSeconds(60)),
                LEASES_OFF, SCALING_OFF, KINDS_OFF);

        CounterCheck.Result result = Bench.counters(config, line -> { });

        assertThat(result.errors()).isZero();
        assertThat(result.loaded()).allSatisfy(usage -> assertThat(usage.keys()).isGreaterThanOrEqualTo(2_000));
        assertThat(result.cleared()).as("back to the baseline: %s", result.after()).isTrue();
        assertThat(result.sampled()).isPositive();
        assertThat(result.tokensNotHigher()).isZero();
        assertThat(result.fencedBytesPerLock()).allSatisfy(bytes -> assertThat(bytes).isPositive());
        assertThat(out.resolve("counters.md")).exists();
    }

    @Test
    void everyKindOfLockRunsCheckedBesideRedissonsAndItsTableIsWritten(@TempDir Path out) throws Exception {
        BenchConfig config = new BenchConfig(Duration.ZERO, 1, Duration.ofMillis(50), Duration.ofMillis(200),
                List.of(1), List.of(), false, List.of(2), Duration.ZERO, Duration.ZERO, out,
                new BenchConfig.HeapSettings(false, 0, 1, 1, 0), COUNTERS_OFF, LEASES_OFF, SCALING_OFF,
                new BenchConfig.KindSettings(true, true, List.of(1), List.of(), 4, 2, 2, Duration.ofMillis(1),
                        Duration.ofMillis(5), Duration.ofSeconds(1)));

        List<Kinds.Result> results = Bench.kinds(config, line -> { });

        assertThat(results).extracting(r -> r.level().id()).containsExactly("lock-1", "redisson-lock", "several-1",
                "redisson-several", "rw-1", "redisson-rw", "permits-1", "redisson-permits", "redisson-semaphore");
        assertThat(results).allSatisfy(r -> {
            String name = r.level().contestant();
            // holds, not pairs in the window: a cold client's first round may outlast a window this short
            assertThat(r.counts().reads() + r.counts().writes()).as(name + " holds").isPositive();
            assertThat(r.counts().violations()).as(name + " violations").isZero();
            assertThat(r.counts().failures()).as(name + " errors: " + r.counts().firstFailure()).isZero();
            if (r.kind() == Kind.PERMITS) {
                assertThat(r.counts().mostAtOnce()).as(name + " holders at once").isBetween(1, 2);
            }
        });
        String table = Files.readString(out.resolve("kinds.md"));
        results.forEach(r -> assertThat(table).contains("| " + r.level().contestant() + " |"));
        assertThat(table).contains("| plain lock | redlock-java lock (1 node) | 1 | 4 |");
    }

    @Test
    void everyContestantRunsAndTheTableIsWritten(@TempDir Path out) throws IOException {
        BenchConfig config = new BenchConfig(Duration.ofMillis(200), 1, Duration.ofMillis(200), Duration.ofMillis(300),
                List.of(1, 16), Contestants.KNOWN, true, List.of(3), Duration.ofMillis(300), Duration.ofSeconds(1), out,
                new BenchConfig.HeapSettings(false, 0, 1, 1, 0), COUNTERS_OFF, LEASES_OFF, SCALING_OFF, KINDS_OFF);

        BenchReport report = Bench.run(config, line -> { });

        assertThat(report.levels()).hasSize(Contestants.KNOWN.size() * 2).allSatisfy(result -> {
            assertThat(result.pairs()).as(result.contestant() + " pairs at " + result.inFlight()).isPositive();
            assertThat(result.errors()).as(result.contestant() + " errors: " + result.firstError()).isZero();
            assertThat(result.p50Micros()).isPositive().isLessThanOrEqualTo(result.p99Micros());
        });
        // acquisitions under contention; waits that ran out (5 s) are a figure of the run, in its table: no lock
        // promises a waiter its turn within a bound
        assertThat(report.contended()).hasSize(2).allSatisfy(result -> assertThat(result.acquisitions())
                .as(result.contestant()).isPositive());
        String results = Files.readString(report.resultsFile());
        assertThat(results).contains("| contestant | nodes | in-flight | pairs/s |", "Contended");
        report.levels().forEach(result -> assertThat(results).contains("| " + result.contestant() + " |"));
        assertThat(report.charts()).extracting(chart -> chart.getFileName().toString())
                .containsExactly("throughput.png", "latency-inflight-1.png", "latency-inflight-16.png");
        for (Path chart : report.charts()) {
            assertThat(Files.size(chart)).as(chart.toString()).isGreaterThan(1000);
        }
    }
}
