package io.redlock.fencing.sql;

import io.redlock.testkit.GuaranteesFile;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;

/** The section of docs/GUARANTEES.md the PostgreSQL storage rows write, only from a complete, green run. */
final class StorageRowsSection {

    static final String HEADING = GuaranteesFile.FENCED_SQL;
    static final String OUTPUT = "redlock.guarantees.sql";

    private StorageRowsSection() {
    }

    static void writeIfComplete(Map<StorageFaultRow, StorageRowResult> rows, Duration took) throws IOException {
        String out = System.getProperty(OUTPUT, "");
        if (out.isBlank() || rows.size() != StorageFaultRow.values().length) {
            return;
        }
        StringBuilder md = new StringBuilder(HEADING).append("\n\n");
        md.append("The same workload with the storage on a real PostgreSQL instead of a Redis node: `FencedJdbc` on a")
                .append(" table at READ COMMITTED, each worker's read fenced (`claim`), its write an `update` in a")
                .append(" transaction with an audit row, so the order in which the storage accepted tokens is known;")
                .append(" a plain counter beside it. ").append(StorageWorkload.WORKERS).append(" workers, 5 lock ")
                .append("nodes, TTL ").append(StorageWorkload.TTL.toMillis()).append(" ms. Measured by ")
                .append("`PostgresFaultRowsIT` (module redlock-fencing-sql) on ")
                .append(ZonedDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE)).append(" with PostgreSQL ")
                .append("of Debian's package, in ").append(took.toSeconds()).append(" s. Regenerate with:\n\n")
                .append("```bash\nmvn -B verify -pl redlock-fencing-sql -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \\\n")
                .append("    -Dfailsafe.failIfNoSpecifiedTests=false -Dit.test=PostgresFaultRowsIT \\\n")
                .append("    -Dredlock.guarantees.sql=$PWD/docs/GUARANTEES.md\n```\n\n");
        md.append("| row | fault | token order at storage | stale writes refused | lost fenced increments ")
                .append("| acquisitions ok / failed / unknown | fenced increments acknowledged ")
                .append("| plain counter: lost updates | what it shows |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        rows.values().forEach(row -> md.append(row.markdown()).append('\n'));
        md.append("\nHow PostgreSQL and MariaDB check the token, statement by statement and at which isolation ")
                .append("levels: docs/FENCING.md, \"Fenced SQL, server by server\".\n\n"); // blank line before the next
        GuaranteesFile.replaceSection(Path.of(out), HEADING, md.toString());
    }
}
