package io.redlock.faults;

import io.redlock.RedlockConfig;
import io.redlock.testkit.GuaranteesFile;
import io.redlock.testkit.RedisBinary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;

/** Writes the measured rows as docs/GUARANTEES.md (or wherever it is told), but only from a complete, green run. */
final class GuaranteesTable {

    /** System property naming the output file; unset, the table goes to target/GUARANTEES.md. */
    static final String OUTPUT = "redlock.guarantees.out";

    private GuaranteesTable() {
    }

    /**
     * Writes the table if {@code rows} has all {@code expectedRows} rows and every test passed; otherwise leaves the
     * file as it is (a failed or partial run must not replace the published table).
     *
     * @return the file written, or empty if nothing was written
     */
    static Optional<Path> writeIfComplete(List<RowResult> rows, int expectedRows, int passedTests,
            java.time.Duration took) throws IOException {
        if (rows.size() != expectedRows || passedTests != expectedRows) {
            return Optional.empty();
        }
        return Optional.of(write(rows, took));
    }

    private static Path write(List<RowResult> rows, java.time.Duration took) throws IOException {
        Path out = Path.of(System.getProperty(OUTPUT, "target/GUARANTEES.md"));
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        StringBuilder md = new StringBuilder();
        md.append("# What holds under which fault\n\n");
        md.append("Measured by `FaultMatrixIT` against real redis-server processes: 5 lock nodes and 1 storage node, ")
                .append("3 workers, TTL ").append(RowBench.TTL.toMillis()).append(" ms; in each critical section ")
                .append("every worker does a fenced read-modify-write (`FencedRedis`, tokens checked at the storage) ")
                .append("and a plain one of another counter. Every operation is recorded (invoke -> ok | fail | ")
                .append("unknown) and checked by `io.redlock.testkit.history.Checkers`.\n\n");
        md.append("Generated on ").append(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME))
                .append(" on ").append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
                .append(System.getProperty("java.version")).append(", redis-server ")
                .append(RedisBinary.get().version()).append("; the matrix took ").append(took.toSeconds())
                .append(" s. Regenerate with:\n\n")
                .append("```bash\nmvn -B verify -pl redlock-core -am -Pguarantees\n```\n\n");
        md.append("| row | fault | mutual exclusion, critical sections (no fencing) | mutual exclusion, validity ")
                .append("windows | token order at storage | stale writes rejected | lost fenced increments ")
                .append("| acquisitions ok / failed / unknown | fenced increments acknowledged ")
                .append("| plain counter: lost updates | what it shows |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (RowResult row : rows) {
            md.append("| ").append(row.id()).append(" | ").append(row.fault()).append(" | ")
                    .append(row.criticalSections()).append(" | ").append(row.validityWindows()).append(" | ")
                    .append(row.tokenViolations() == 0 ? "never went down" : row.tokenViolations() + " VIOLATIONS")
                    .append(" | ").append(row.staleRejected()).append(" | ").append(row.lostFenced()).append(" | ")
                    .append(row.acquisitions()).append(" / ").append(row.acquireFailed()).append(" / ")
                    .append(row.acquireUnknown()).append(" | ").append(row.fencedIncrements()).append(" | ")
                    .append(row.lostPlain()).append(" | ").append(row.explanation()).append(" |\n");
        }
        md.append("\nColumns: *critical sections* — whether two workers' critical sections (from acquiring to ")
                .append("releasing, as the application saw them) overlapped; *validity windows* — whether two leases ")
                .append("overlapped within the validity the library promised (from acquiring to the validity deadline, ")
                .append("cut short by the release). Where holders share (F24–F28: readers, which may hold together ")
                .append("but never beside the writer; F29–F33: permits, at most 2 at once, and the holders only ")
                .append("read), an overlap is one the kind forbids. A violation in validity windows is the lock ")
                .append("itself failing, one only in the critical sections is a holder using a lease it no longer ")
                .append("had. Where critical sections \"held\", none overlapped while every holder in the overlap ")
                .append("was within its validity; an overlap that began after a holder's validity ran out (the ")
                .append("test's thread paused, as any process can be) is counted beside it and is fencing's to ")
                .append("cover. Where they must be violated, the fault is scheduled against holders that take a ")
                .append("long lease and wait in their critical section until another worker holds beside them, so ")
                .append("it happens on every run; *token order* — whether the ")
                .append("storage ever accepted a token lower than one it had accepted before, or one token from two ")
                .append("leases; *stale writes rejected* — fenced writes (or reads) the storage refused because a ")
                .append("newer token had been seen; *lost fenced increments* — acknowledged fenced increments missing ")
                .append("from the final counter; *acquisitions* — acquire calls that returned a lease / returned ")
                .append("none / threw (unknown: maybe acquired); *plain counter: lost updates* — the same for the ")
                .append("unfenced counter. Every row also asserts progress: a minimum number of acquisitions and ")
                .append("acknowledged fenced increments. The file is written only when every row passed.\n");
        md.append("\nFencing counters expire ").append("`fenceCounterTtl` (default ")
                .append(RedlockConfig.DEFAULT_FENCE_COUNTER_TTL.toHours()).append(" h) after their last grant and ")
                .append("come back at the node's clock floor. Token order survives that unless a clock difference of ")
                .append("at least `fenceCounterTtl` − 1 s gets in between, on every node that decides the next token ")
                .append("(a majority): a node clock that ran that far ahead of another while granting, or a step ")
                .append("back larger than the time since the counter's last write, after it expired. Row F17 shows a ")
                .append("1 s step back with a 2 s horizon keeping the order; `CounterExpiryClockIT` shows a 60 s step ")
                .append("back on every node handing out a lower token; docs/FENCING.md, \"Counters that expire\", ")
                .append("has the argument and the model checks.\n");
        md.append("\nRow F18 runs on ").append(ClusterFaultRows.MEMBERS).append(" quorum members that are each a ")
                .append("Redis Cluster of ").append(ClusterFaultRows.SHARDS).append(" masters without replicas, ")
                .append("instead of the 5 nodes. Not measured: a failover inside a member, whose promoted replica may ")
                .append("lack the last writes; like a sentinel failover it can cost that member's vote for the locks ")
                .append("it held (docs/SCALING.md, \"What a cluster member does not change\").\n");
        String fencedSql = GuaranteesFile.section(out, GuaranteesFile.FENCED_SQL);
        if (!fencedSql.isEmpty()) {
            md.append('\n').append(fencedSql.stripTrailing()).append('\n'); // written by redlock-fencing-sql's rows
        }
        md.append(io.redlock.histories.HistoriesReport.markdown());
        String randomizedRun = GuaranteesFile.section(out, GuaranteesFile.RANDOMIZED_RUN);
        if (!randomizedRun.isEmpty()) {
            md.append('\n').append(randomizedRun); // measured by the randomized run, which writes it
        }
        Files.writeString(out, md);
        return out;
    }
}
