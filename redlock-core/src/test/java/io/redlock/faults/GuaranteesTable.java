package io.redlock.faults;

import io.redlock.testkit.RedisBinary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** Writes the measured rows as docs/GUARANTEES.md (or wherever it is told). */
final class GuaranteesTable {

    /** System property naming the output file; unset, the table goes to target/GUARANTEES.md. */
    static final String OUTPUT = "redlock.guarantees.out";

    private GuaranteesTable() {
    }

    static Path write(List<RowResult> rows) throws IOException {
        Path out = Path.of(System.getProperty(OUTPUT, "target/GUARANTEES.md"));
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        StringBuilder md = new StringBuilder();
        md.append("# What holds under which fault\n\n");
        md.append("Measured by `FaultMatrixIT` against real redis-server processes: 5 lock nodes and 1 storage node, ")
                .append("3 workers, TTL ").append(FaultMatrixIT.TTL.toMillis()).append(" ms; in each critical section ")
                .append("every worker does a fenced read-modify-write (`FencedRedis`, tokens checked at the storage) ")
                .append("and a plain one of another counter. Every operation is recorded (invoke -> ok | fail | ")
                .append("unknown) and checked by `io.redlock.testkit.history.Checkers`.\n\n");
        md.append("Generated on ").append(ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME))
                .append(" on ").append(Runtime.getRuntime().availableProcessors()).append(" cores, Java ")
                .append(System.getProperty("java.version")).append(", redis-server ")
                .append(RedisBinary.get().version()).append(". Regenerate with:\n\n")
                .append("```bash\nmvn -B verify -pl redlock-core -am -Pguarantees\n```\n\n");
        md.append("| row | fault | mutual exclusion (no fencing) | token order at storage | stale writes rejected ")
                .append("| lost fenced increments | acquisitions | plain counter: lost updates | what it shows |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        for (RowResult row : rows) {
            md.append("| ").append(row.id()).append(" | ").append(row.fault()).append(" | ")
                    .append(row.mutualExclusion()).append(" | ")
                    .append(row.tokenViolations() == 0 ? "never went down" : row.tokenViolations() + " VIOLATIONS")
                    .append(" | ").append(row.staleRejected()).append(" | ").append(row.lostFenced()).append(" | ")
                    .append(row.acquisitions()).append(" | ").append(row.lostPlain()).append(" | ")
                    .append(row.explanation()).append(" |\n");
        }
        md.append("\nColumns: *mutual exclusion* — whether two workers' critical sections (from acquiring to ")
                .append("releasing, as the application saw them) overlapped; *token order* — whether the storage ever ")
                .append("accepted a token lower than one it had accepted before, or one token from two leases; ")
                .append("*stale writes rejected* — fenced writes (or reads) the storage refused because a newer ")
                .append("token had been seen; *lost fenced increments* — acknowledged fenced increments missing from ")
                .append("the final counter; *plain counter: lost updates* — the same for the unfenced counter.\n");
        Files.writeString(out, md);
        return out;
    }
}
