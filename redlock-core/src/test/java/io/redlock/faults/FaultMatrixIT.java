package io.redlock.faults;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fault matrix (issue 6), one parameterized test over the table {@link FaultRow}: every row runs three workers on
 * five real nodes (started for that row alone) and one storage node, injects its fault, and checks the recorded
 * histories. The fenced path must never accept a stale token or lose an acknowledged increment, in any row; mutual
 * exclusion without fencing — overlapping critical sections, and overlapping validity windows (the lock's own
 * promise) — must hold or be broken exactly where the row says; every row must make progress (a minimum of
 * acquisitions and acknowledged fenced increments); and each row's scenario must have asserted exactly the further
 * properties the row lists ({@link FaultRow.Also}). Every wait derives from the TTL. The scenarios live by concern in
 * {@link ProcessFaultRows}, {@link NodeFaultRows}, {@link ClockFaultRows} and {@link NetworkFaultRows}.
 *
 * <p>Rows share nothing (own nodes, storage, proxies and clients, all closed when the row ends), so they run alone or
 * in any order. The whole matrix:
 *
 * <pre>{@code
 * mvn -B -o verify -pl redlock-core -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dfailsafe.failIfNoSpecifiedTests=false -Dit.test=FaultMatrixIT
 * }</pre>
 *
 * Some rows only: add {@code -Dredlock.faults.rows=F4,F15} (row ids as in docs/GUARANTEES.md, any case).
 *
 * <p>The table of results (docs/GUARANTEES.md with {@code -Pguarantees}, else target/GUARANTEES.md) is written after
 * the last row, in the table's order, and only if every row ran and passed: a partial run never replaces it.
 */
@WithRedisNodes(value = 5, clockShift = true)
class FaultMatrixIT {

    /** System property selecting rows by id, comma-separated; unset or blank: every row. */
    static final String ROWS = "redlock.faults.rows";

    private static final Logger log = LoggerFactory.getLogger(FaultMatrixIT.class);
    private static final Map<FaultRow, RowResult> PASSED = Collections.synchronizedMap(new EnumMap<>(FaultRow.class));
    private static long started;

    @BeforeAll
    static void startClock() {
        started = System.nanoTime();
    }

    /** The rows to run: those named by {@value #ROWS}, or all of them, in the table's order. */
    static Stream<FaultRow> rows() {
        String selected = System.getProperty(ROWS, "").trim();
        if (selected.isEmpty()) {
            return Arrays.stream(FaultRow.values());
        }
        List<FaultRow> rows = new ArrayList<>();
        for (String id : selected.split("\\s*,\\s*")) {
            rows.add(Arrays.stream(FaultRow.values()).filter(r -> r.id().equalsIgnoreCase(id)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(ROWS + ": no row " + id + "; the rows are "
                            + ids(Arrays.asList(FaultRow.values())))));
        }
        return rows.stream().distinct().sorted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void row(FaultRow row, RedisNodes nodes, @TempDir Path dir) throws Exception {
        RowResult result;
        try (RowBench bench = new RowBench(nodes, dir)) {
            Measured measured = row.scenario.run(bench);
            result = row.check().check(measured);
            assertThat(bench.asserted()).as("%s: the further properties its scenario asserted", row.id())
                    .containsExactlyInAnyOrderElementsOf(row.also);
        }
        PASSED.put(row, result); // only once the row's resources closed cleanly too
    }

    @AfterAll
    static void writeTable() throws Exception {
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        List<RowResult> rows = Arrays.stream(FaultRow.values()).map(PASSED::get).filter(r -> r != null).toList();
        for (RowResult row : rows) {
            log.info("{} {}: critical sections {}, validity windows {}, token violations {}, stale rejected {},"
                    + " lost fenced {}, acquisitions {} ok / {} failed / {} unknown, fenced increments {},"
                    + " plain lost {}", row.id(), row.fault(), row.criticalSections(), row.validityWindows(),
                    row.tokenViolations(), row.staleRejected(), row.lostFenced(), row.acquisitions(),
                    row.acquireFailed(), row.acquireUnknown(), row.fencedIncrements(), row.lostPlain());
        }
        int all = FaultRow.values().length;
        GuaranteesTable.writeIfComplete(rows, all, PASSED.size(), took).ifPresentOrElse(
                table -> log.info("matrix took {} s; guarantees table written to {}", took.toSeconds(),
                        table.toAbsolutePath()),
                () -> log.warn("matrix took {} s; {} of {} rows passed ({}): the guarantees table was NOT written",
                        took.toSeconds(), PASSED.size(), all, ids(PASSED.keySet())));
    }

    private static String ids(java.util.Collection<FaultRow> rows) {
        return rows.stream().sorted().map(FaultRow::id).collect(Collectors.joining(", "));
    }
}
