package io.redlock.fencing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.fencing.Fence;
import io.redlock.fencing.FencedJdbc;
import io.redlock.fencing.FencedResult;
import io.redlock.fencing.TransactionConflictException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each kind of fenced statement on each server and isolation level tested, by example: the {@code ddl()} run as
 * given, a fenced insert raced by two holders, a delete's tombstone, two rows fenced in one transaction, a missing
 * row. The generated histories ({@link FencedHistoriesIT}) mix them under load.
 */
class FencedOperationsIT extends BothDatabases {

    private static final int RACES = 20;

    static Stream<Arguments> levels() {
        List<Arguments> levels = new ArrayList<>();
        postgres.isolations().forEach(level -> levels.add(Arguments.of(postgres, level)));
        mariadb.isolations().forEach(level -> levels.add(Arguments.of(mariadb, level)));
        return levels.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("levels")
    void theDdlRunsAsGivenAndNewRowsStartUnfenced(Database database, Database.Isolation level) throws Exception {
        Database.Table table = database.newTable(); // runs ddl() statement by statement
        try (Connection connection = database.connect(level)) {
            execute(connection, "INSERT INTO " + table.name() + " (id) VALUES (1)");
            try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(
                    "SELECT fence, fence_owner, fence_deleted FROM " + table.name() + " WHERE id = 1")) {
                assertThat(row.next()).isTrue();
                assertThat(row.getLong(1)).isZero();
                assertThat(row.getString(2)).isNull();
                assertThat(row.getBoolean(3)).isFalse();
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("levels")
    void ofTwoHoldersRacingToCreateARowTheOlderLoses(Database database, Database.Isolation level) throws Exception {
        Database.Table table = database.newTable();
        try (Connection olderConnection = database.connect(level); Connection newerConnection = database.connect(level)) {
            for (long id = 1; id <= RACES; id++) {
                Fence older = new Fence(2 * id, "older-" + id);
                Fence newer = new Fence(2 * id + 1, "newer-" + id);
                CyclicBarrier start = new CyclicBarrier(2);
                long row = id;
                CompletableFuture<FencedResult<Integer>> olderWrite = CompletableFuture.supplyAsync(
                        () -> createRacing(table.fenced(), olderConnection, row, older, start));
                FencedResult<Integer> newerWrite = createRacing(table.fenced(), newerConnection, row, newer, start);
                FencedResult<Integer> olderResult = olderWrite.get(30, TimeUnit.SECONDS);
                assertThat(newerWrite.accepted()).as("the newer holder, row %d", id).isTrue();
                if (!olderResult.accepted()) { // else it wrote first, and the newer one wrote over it
                    assertThat(olderResult.highestToken()).isEqualTo(newer.token());
                }
                assertThat(table.fenced().highestToken(newerConnection, row)).isEqualTo(newer.token());
                assertThat(balance(newerConnection, table, row)).isEqualTo(newer.token());
            }
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("levels")
    void aDeletedRowKeepsItsFenceSoAnOlderTokenCannotBringItBack(Database database, Database.Isolation level)
            throws Exception {
        Database.Table table = database.newTable();
        FencedJdbc fenced = table.fenced();
        try (Connection connection = database.connect(level)) {
            fenced.upsert(connection, 1, new Fence(3, "a"), Map.of("balance", 3)).orElseThrow();
            fenced.delete(connection, 1, new Fence(5, "b")).orElseThrow();
            FencedResult<Integer> resurrect = fenced.upsert(connection, 1, new Fence(4, "stale"), Map.of("balance", 4));
            assertThat(resurrect.accepted()).isFalse();
            assertThat(resurrect.highestToken()).isEqualTo(5);
            assertThat(fenced.update(connection, 1, new Fence(4, "stale"), "balance = ?", 4).highestToken())
                    .isEqualTo(5);
            assertThat(fenced.update(connection, 1, new Fence(6, "c"), "balance = ?", 6).missing()).isTrue();
            assertThat(fenced.delete(connection, 1, new Fence(6, "c")).missing()).isTrue();
            fenced.upsert(connection, 1, new Fence(7, "d"), Map.of("balance", 7)).orElseThrow();
            assertThat(balance(connection, table, 1)).isEqualTo(7);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("levels")
    void rowsWrittenInOneTransactionAreFencedTogether(Database database, Database.Isolation level) throws Exception {
        Database.Table table = database.newTable();
        FencedJdbc fenced = table.fenced();
        try (Connection connection = database.connect(level)) {
            fenced.upsert(connection, 1, new Fence(5, "a"), Map.of("balance", 1)).orElseThrow();
            fenced.upsert(connection, 2, new Fence(7, "b"), Map.of("balance", 1)).orElseThrow();
            connection.setAutoCommit(false);
            Fence stale = new Fence(6, "c");
            assertThat(fenced.update(connection, 1, stale, "balance = balance + ?", 10).accepted()).isTrue();
            FencedResult<Integer> second = fenced.update(connection, 2, stale, "balance = balance + ?", 10);
            assertThat(second.accepted()).isFalse();
            assertThat(second.highestToken()).isEqualTo(7);
            connection.rollback(); // one row refused: neither is written
            assertThat(fenced.highestToken(connection, 1)).isEqualTo(5);
            assertThat(balance(connection, table, 1)).isEqualTo(1);
            Fence newest = new Fence(8, "d");
            fenced.update(connection, 1, newest, "balance = balance + ?", 10).orElseThrow();
            fenced.update(connection, 2, newest, "balance = balance + ?", 10).orElseThrow();
            connection.commit();
            assertThat(balance(connection, table, 1) + balance(connection, table, 2)).isEqualTo(22);
            connection.commit();
        }
    }

    /** One holder's fenced insert of a row nobody created yet, both holders let go at once. */
    private static FencedResult<Integer> createRacing(FencedJdbc fenced, Connection connection, long row, Fence fence,
            CyclicBarrier start) {
        try {
            start.await(10, TimeUnit.SECONDS);
            for (int attempt = 0; ; attempt++) {
                try {
                    return fenced.upsert(connection, row, fence, Map.of("balance", fence.token()));
                } catch (TransactionConflictException e) {
                    if (attempt > 20) {
                        throw e;
                    }
                    if (!connection.getAutoCommit()) {
                        connection.rollback(); // retryable, as documented; in autocommit the statement alone failed
                    }
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static long balance(Connection connection, Database.Table table, long id) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(
                "SELECT balance FROM " + table.name() + " WHERE id = " + id)) {
            assertThat(row.next()).isTrue();
            return row.getLong(1);
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
