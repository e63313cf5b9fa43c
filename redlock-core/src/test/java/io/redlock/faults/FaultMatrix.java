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
import org.junit.jupiter.api.TestInstance;
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
 * <p>Rows share nothing (own nodes, storage, proxies and clients, all closed when the row ends), so they run alone, in
 * any order, or in two JVMs at once: the build runs the table in two halves ({@link FaultMatrixFirstHalfIT},
 * {@link FaultMatrixSecondHalfIT}) beside each other; {@link FaultMatrixIT}, the whole table in one JVM, is what
 * writes docs/GUARANTEES.md ({@code -Pguarantees}) and what runs some rows by hand:
 *
 * <pre>{@code
 * mvn -B -o verify -pl redlock-core -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dfailsafe.failIfNoSpecifiedTests=false -Dit.test=FaultMatrixIT -Dredlock.faults.rows=F4,F15
 * }</pre>
 *
 * (row ids as in docs/GUARANTEES.md, any case; unset: every row of the class's part of the table).
 */
@WithRedisNodes(value = 5, clockShift = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FaultMatrix {

    /** System property selecting rows by id, comma-separated; unset or blank: every row. */
    static final String ROWS = "redlock.faults.rows";

    private static final Logger log = LoggerFactory.getLogger(FaultMatrix.class);
    private final Map<FaultRow, RowResult> passed = Collections.synchronizedMap(new EnumMap<>(FaultRow.class));
    private long started;

    /** The part of the table this class runs, in the table's order. */
    abstract List<FaultRow> part();

    /** Whether this class writes the table once every row of it passed: only the whole table's. */
    abstract boolean writesTable();

    /** The rows of the table from {@code from} (inclusive) to {@code to} (exclusive), by position. */
    static List<FaultRow> positions(int from, int to) {
        return Arrays.asList(FaultRow.values()).subList(from, to);
    }

    @BeforeAll
    void startClock() {
        started = System.nanoTime();
    }

    /** The rows to run: those of {@link #part()} named by {@value #ROWS}, or all of them, in the table's order. */
    Stream<FaultRow> rows() {
        String selected = System.getProperty(ROWS, "").trim();
        if (selected.isEmpty()) {
            return part().stream();
        }
        List<FaultRow> rows = new ArrayList<>();
        for (String id : selected.split("\\s*,\\s*")) {
            rows.add(Arrays.stream(FaultRow.values()).filter(r -> r.id().equalsIgnoreCase(id)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(ROWS + ": no row " + id + "; the rows are "
                            + ids(Arrays.asList(FaultRow.values())))));
        }
        return rows.stream().distinct().filter(part()::contains).sorted();
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
        passed.put(row, result); // only once the row's resources closed cleanly too
    }

    @AfterAll
    void writeTable() throws Exception {
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        List<RowResult> rows = part().stream().map(passed::get).filter(r -> r != null).toList();
        for (RowResult row : rows) {
            log.info("{} {}: critical sections {}, validity windows {}, token violations {}, stale rejected {},"
                    + " lost fenced {}, acquisitions {} ok / {} failed / {} unknown, fenced increments {},"
                    + " plain lost {}", row.id(), row.fault(), row.criticalSections(), row.validityWindows(),
                    row.tokenViolations(), row.staleRejected(), row.lostFenced(), row.acquisitions(),
                    row.acquireFailed(), row.acquireUnknown(), row.fencedIncrements(), row.lostPlain());
        }
        if (!writesTable()) {
            log.info("{} rows took {} s; {} of {} passed", getClass().getSimpleName(), took.toSeconds(),
                    passed.size(), part().size());
            return;
        }
        int all = FaultRow.values().length;
        GuaranteesTable.writeIfComplete(rows, all, passed.size(), took).ifPresentOrElse(
                table -> log.info("matrix took {} s; guarantees table written to {}", took.toSeconds(),
                        table.toAbsolutePath()),
                () -> log.warn("matrix took {} s; {} of {} rows passed ({}): the guarantees table was NOT written",
                        took.toSeconds(), passed.size(), all, ids(passed.keySet())));
    }

    private static String ids(java.util.Collection<FaultRow> rows) {
        return rows.stream().sorted().map(FaultRow::id).collect(Collectors.joining(", "));
    }
}
