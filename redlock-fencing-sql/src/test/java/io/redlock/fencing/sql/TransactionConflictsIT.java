package io.redlock.fencing.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.fencing.Fence;
import io.redlock.fencing.TransactionConflictException;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A fenced write whose transaction conflicts with another one is a {@link TransactionConflictException} carrying the
 * SQLState (retryable, documented), never a plain {@code RedlockException} with the driver's message; and retried
 * with the same fence it is decided by the fence as usual.
 */
class TransactionConflictsIT extends BothDatabases {

    @Test
    void aConcurrentUpdateUnderPostgresRepeatableReadIsARetryableConflictThenTheRetryIsFenced() throws Exception {
        Database.Table table = postgres.newTable();
        try (Connection older = postgres.connect(Database.REPEATABLE_READ);
                Connection other = postgres.connect(Database.READ_COMMITTED)) {
            insertRow(other, table, 1);
            older.setAutoCommit(false);
            table.fenced().highestToken(older, 1); // the snapshot starts here
            table.fenced().update(other, 1, new Fence(5, "lease-5"), "balance = balance + ?", 1).orElseThrow();
            Fence fence = new Fence(6, "lease-6");
            assertThatThrownBy(() -> table.fenced().update(older, 1, fence, "balance = balance + ?", 1))
                    .isInstanceOfSatisfying(TransactionConflictException.class,
                            e -> assertThat(e.sqlState()).isEqualTo("40001"));
            older.rollback();
            assertThat(table.fenced().update(older, 1, fence, "balance = balance + ?", 1).accepted()).isTrue();
            older.commit();
        }
    }

    @Test
    void aDeadlockUnderMariaDbSerializableIsARetryableConflict() throws Exception {
        Database.Table table = mariadb.newTable();
        try (Connection first = mariadb.connect(Database.SERIALIZABLE);
                Connection second = mariadb.connect(Database.SERIALIZABLE)) {
            insertRow(first, table, 1);
            first.setAutoCommit(false);
            second.setAutoCommit(false);
            table.fenced().highestToken(first, 1); // SERIALIZABLE reads take shared locks: both hold one
            table.fenced().highestToken(second, 1);
            CompletableFuture<Object> firstWrite = CompletableFuture.supplyAsync(() -> write(first, table, 7));
            Object secondWrite = awaitBlocked(firstWrite, () -> write(second, table, 8));
            if (secondWrite instanceof RuntimeException) {
                second.rollback(); // the victim: its shared lock goes, and the first write goes on
            }
            Object firstOutcome = firstWrite.get(30, TimeUnit.SECONDS);
            // InnoDB picks the victim: one of the two is a typed conflict, the other one is not refused by it
            assertThat(List.of(firstOutcome, secondWrite)).filteredOn(RuntimeException.class::isInstance)
                    .singleElement().isInstanceOfSatisfying(TransactionConflictException.class,
                            e -> assertThat(e.sqlState()).isEqualTo("40001"));
            first.rollback();
            second.rollback();
        }
    }

    /** Runs {@code write} once {@code blocked} is waiting on a lock (not done within 200 ms; bounded by 30 s). */
    private static Object awaitBlocked(CompletableFuture<Object> blocked, java.util.function.Supplier<Object> write)
            throws Exception {
        try {
            return blocked.get(200, TimeUnit.MILLISECONDS) == null ? null : write.get();
        } catch (java.util.concurrent.TimeoutException waiting) {
            return write.get();
        }
    }

    private static Object write(Connection connection, Database.Table table, long token) {
        try {
            return table.fenced().update(connection, 1, new Fence(token, "lease-" + token), "balance = balance + ?", 1);
        } catch (RuntimeException e) {
            return e;
        }
    }

    private static void insertRow(Connection connection, Database.Table table, long id) throws Exception {
        try (Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO " + table.name() + " (id) VALUES (" + id + ")");
        }
    }
}
