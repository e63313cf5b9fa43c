package io.redlock.fencing.sql;

import java.sql.SQLException;

/** What one row measured, as a line of the table. */
record StorageRowResult(StorageFaultRow row, long tokenViolations, int refused, long lostFenced, int acquired,
        int failed, int unknown, int acknowledged, long plainLost) {

    static StorageRowResult of(StorageFaultRow row, StorageWorkload workload) throws SQLException {
        return new StorageRowResult(row, workload.tokenViolations(), workload.refused.get(),
                workload.acknowledged.get() - workload.fencedBalance(), workload.acquired.get(),
                workload.failed.get(), workload.unknown.get(), workload.acknowledged.get(), workload.plainLost());
    }

    String markdown() {
        return "| " + row.name() + " (as " + row.beside() + ") | " + row.fault() + " | "
                + (tokenViolations == 0 ? "never went down" : tokenViolations + " VIOLATIONS") + " | " + refused
                + " | " + lostFenced + " | " + acquired + " / " + failed + " / " + unknown + " | " + acknowledged
                + " | " + plainLost + " | " + row.shows() + " |";
    }
}
