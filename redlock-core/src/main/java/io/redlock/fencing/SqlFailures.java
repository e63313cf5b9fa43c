package io.redlock.fencing;

import io.redlock.RedlockException;
import java.sql.SQLException;
import java.util.Set;

/** What a database's failure means to a fenced operation: a retryable conflict (typed) or any other failure. */
final class SqlFailures {

    /** Serialization failure (PostgreSQL, and MariaDB's deadlock) and PostgreSQL's deadlock. */
    private static final Set<String> CONFLICTS = Set.of("40001", "40P01");

    private SqlFailures() {
    }

    /** A {@link TransactionConflictException} if any exception in the chain carries a conflict's SQLState. */
    static RedlockException translate(String what, SQLException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null && CONFLICTS.contains(sql.getSQLState())) {
                return new TransactionConflictException(what + " conflicted with another transaction (SQLState "
                        + sql.getSQLState() + "); roll back and run the transaction again: " + e.getMessage(),
                        sql.getSQLState(), e);
            }
        }
        return new RedlockException(what + " failed: " + e.getMessage(), e);
    }
}
