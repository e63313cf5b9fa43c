package io.redlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.RedlockException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** A database's failure is a retryable conflict exactly when it carries a conflict's SQLState, anywhere in its chain. */
class SqlFailuresTest {

    @Test
    void serializationFailuresAndDeadlocksAreTypedConflicts() {
        assertThat(SqlFailures.translate("write", new SQLException("could not serialize", "40001")))
                .isInstanceOfSatisfying(TransactionConflictException.class, e -> assertThat(e.sqlState())
                        .isEqualTo("40001"));
        assertThat(SqlFailures.translate("write", new SQLException("deadlock detected", "40P01")))
                .isInstanceOf(TransactionConflictException.class).hasMessageContaining("run the transaction again");
        SQLException wrapped = new SQLException("batch failed", "HY000", new SQLException("Deadlock found", "40001"));
        assertThat(SqlFailures.translate("write", wrapped)).isInstanceOf(TransactionConflictException.class);
    }

    @Test
    void otherFailuresStayPlainRedlockExceptions() {
        RedlockException failure = SqlFailures.translate("write", new SQLException("relation missing", "42P01"));
        assertThat(failure).isNotInstanceOf(TransactionConflictException.class).hasMessageContaining("write failed");
        assertThat(SqlFailures.translate("write", new SQLException("no state")))
                .isNotInstanceOf(TransactionConflictException.class);
    }
}
