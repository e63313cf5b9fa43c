package io.redlock.fencing.sql;

import io.redlock.fencing.Fence;
import io.redlock.fencing.FencedJdbc;
import io.redlock.fencing.FencedResult;
import io.redlock.fencing.TransactionConflictException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs one operation of a lease as one transaction: the fenced statements on its rows; if every one was accepted,
 * the audit rows (one per row, in the same transaction, after the fenced statement locked the row, so their order is
 * the order the rows were written in) and the commit; else a rollback. A {@link TransactionConflictException} is
 * rolled back and retried with the same fence, as its javadoc says, a bounded number of times.
 */
final class Writer {

    static final int MAX_ATTEMPTS = 200;
    private static final java.util.Set<String> CONFLICTS = java.util.Set.of("40001", "40P01");

    /** The outcome of one operation: accepted and committed, or the first row's refusal; conflicts retried. */
    record Outcome(Schedule.Lease lease, Schedule.Op op, boolean acknowledged, List<FencedResult<Integer>> results,
            int conflicts) {
    }

    private final Database.Table table;

    Writer(Database.Table table) {
        this.table = table;
    }

    Outcome run(Connection connection, Schedule.Lease lease, Schedule.Op op) throws SQLException {
        connection.setAutoCommit(false);
        Fence fence = new Fence(lease.token(), lease.owner());
        int conflicts = 0;
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            try {
                List<FencedResult<Integer>> results = new ArrayList<>();
                for (long row : op.rows()) {
                    FencedResult<Integer> result = write(connection, op.kind(), row, fence);
                    results.add(result);
                    if (!result.accepted()) {
                        connection.rollback(); // fenced together: none of the rows, or all of them
                        return new Outcome(lease, op, false, results, conflicts);
                    }
                }
                for (long row : op.rows()) {
                    audit(connection, row, lease.token(), op.kind());
                }
                connection.commit();
                return new Outcome(lease, op, true, results, conflicts);
            } catch (TransactionConflictException e) {
                connection.rollback();
                conflicts++;
                backOff(attempt);
            } catch (SQLException e) {
                if (!CONFLICTS.contains(e.getSQLState())) {
                    throw e;
                }
                connection.rollback(); // the audit insert or the commit conflicted (SERIALIZABLE): not acknowledged
                conflicts++;
                backOff(attempt);
            }
        }
        throw new AssertionError(lease.owner() + " " + op + ": " + MAX_ATTEMPTS + " conflicts in a row");
    }

    /** A short random pause before a retry, growing a little with each: contenders stop meeting in step. */
    private static void backOff(int attempt) {
        long micros = java.util.concurrent.ThreadLocalRandom.current().nextLong(100, 1000L * Math.min(attempt + 1, 10));
        java.util.concurrent.locks.LockSupport.parkNanos(micros * 1000);
    }

    private FencedResult<Integer> write(Connection connection, Schedule.Kind kind, long row, Fence fence) {
        FencedJdbc fenced = table.fenced();
        return switch (kind) {
            case UPDATE, PAIR -> fenced.update(connection, row, fence, "balance = balance + ?", 1);
            case UPSERT -> fenced.upsert(connection, row, fence, Map.of("balance", 0));
            case DELETE -> fenced.delete(connection, row, fence);
        };
    }

    private void audit(Connection connection, long row, long token, Schedule.Kind kind) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(
                "INSERT INTO " + table.audit() + " (row_id, token, op) VALUES (?, ?, ?)")) {
            insert.setLong(1, row);
            insert.setLong(2, token);
            insert.setString(3, kind.name());
            insert.executeUpdate();
        }
    }
}
