package io.redlock.bench;

import static io.redlock.bench.SmokeSettings.CALLS_OFF;
import static io.redlock.bench.SmokeSettings.COUNTERS_OFF;
import static io.redlock.bench.SmokeSettings.HEAP_OFF;
import static io.redlock.bench.SmokeSettings.KINDS_OFF;
import static io.redlock.bench.SmokeSettings.LEASES_OFF;
import static io.redlock.bench.SmokeSettings.SCALING_OFF;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The side-by-side runs, tiny: every contestant, the blocking ones too, and every kind of lock beside Redisson's run
 * pairs without errors, and their tables and charts get written.
 */
class BenchSmokeIT {

    @Test
    void everyKindOfLockRunsCheckedBesideRedissonsAndItsTableIsWritten(@TempDir Path out) throws Exception {
        BenchConfig config = new BenchConfig(Duration.ZERO, 1, Duration.ofMillis(50), Duration.ofMillis(200),
                List.of(1), List.of(), false, List.of(2), Duration.ZERO, Duration.ZERO, out,
                HEAP_OFF, COUNTERS_OFF, LEASES_OFF, SCALING_OFF, CALLS_OFF,
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
                HEAP_OFF, COUNTERS_OFF, LEASES_OFF, SCALING_OFF, CALLS_OFF, KINDS_OFF);

        BenchReport report = Bench.run(config, line -> { });

        assertThat(report.levels()).hasSize(Contestants.KNOWN.size() * 2).allSatisfy(result -> {
            assertThat(result.errors()).as(result.contestant() + " errors: " + result.firstError()).isZero();
            assertThat(result.p50Micros()).isLessThanOrEqualTo(result.p99Micros());
        });
        // pairs in a window this short are a figure of the run: a loaded machine may pause a level's every thread
        // for all of it; over both levels, each contestant served some
        assertThat(report.levels().stream().collect(Collectors.groupingBy(LevelResult::contestant,
                Collectors.summingLong(LevelResult::pairs)))).hasSize(Contestants.KNOWN.size())
                .allSatisfy((contestant, pairs) -> assertThat(pairs).as(contestant + " pairs").isPositive());
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
