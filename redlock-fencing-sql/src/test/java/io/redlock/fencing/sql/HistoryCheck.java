package io.redlock.fencing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.fencing.FencedResult;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks what the storage accepted in a run against the outcomes the writers were told, row by row, from the audit
 * (the order the rows were written in) and the final rows:
 *
 * <ol>
 *   <li>tokens applied to a row never go down: no write with a lower token than one already accepted is applied;</li>
 *   <li>replaying the acknowledged operations in that order (upsert: balance 0, live; update: +1 on a live row;
 *       delete: tombstone) gives the final row exactly: no acknowledged write is lost, none is applied twice, and
 *       the row's fence is the highest accepted token;</li>
 *   <li>a refused operation was told a token above its own, and that token was accepted for the row: the result
 *       says which token won;</li>
 *   <li>the last lease is never refused.</li>
 * </ol>
 */
final class HistoryCheck {

    /** One applied operation from the audit. */
    private record Applied(long row, long token, String op) {
    }

    /** Counts of a checked run. */
    record Counts(int acknowledged, int refused, int missing, int conflicts) {
    }

    private HistoryCheck() {
    }

    static Counts check(Connection connection, Database.Table table, Schedule schedule, List<Writer.Outcome> outcomes)
            throws SQLException {
        String seed = "seed " + schedule.seed() + ": ";
        List<Applied> applied = audit(connection, table);
        Map<Long, Set<Long>> acceptedTokens = new HashMap<>();
        Map<Long, Long> highest = new HashMap<>();
        Map<Long, Long> balance = new HashMap<>();
        Map<Long, Boolean> live = new HashMap<>();
        for (Applied a : applied) {
            long previous = highest.getOrDefault(a.row(), 0L);
            assertThat(a.token()).as(seed + "row %d: token %d applied after token %d", a.row(), a.token(), previous)
                    .isGreaterThanOrEqualTo(previous);
            highest.put(a.row(), a.token());
            acceptedTokens.computeIfAbsent(a.row(), r -> new HashSet<>()).add(a.token());
            switch (a.op()) {
                case "UPSERT" -> {
                    balance.put(a.row(), 0L);
                    live.put(a.row(), true);
                }
                case "DELETE" -> live.put(a.row(), false);
                default -> {
                    assertThat(live.getOrDefault(a.row(), false)).as(seed + "update of a missing row %d", a.row())
                            .isTrue();
                    balance.merge(a.row(), 1L, Long::sum);
                }
            }
        }
        Map<Long, long[]> rows = rows(connection, table);
        for (long row = 1; row <= Schedule.ROWS; row++) {
            long[] actual = rows.get(row);
            if (!highest.containsKey(row)) {
                assertThat(actual).as(seed + "row %d was never written", row).isNull();
                continue;
            }
            assertThat(actual).as(seed + "row %d", row).containsExactly(balance.get(row), highest.get(row),
                    live.get(row) ? 0 : 1);
        }
        int acknowledged = 0;
        int refused = 0;
        int missing = 0;
        int conflicts = 0;
        long last = schedule.leases().size();
        for (Writer.Outcome outcome : outcomes) {
            conflicts += outcome.conflicts();
            if (outcome.acknowledged()) {
                acknowledged++;
                long count = applied.stream().filter(a -> a.token() == outcome.lease().token()
                        && outcome.op().rows().contains(a.row()) && a.op().equals(outcome.op().kind().name())).count();
                assertThat(count).as(seed + "acknowledged %s of lease %d in the audit", outcome.op(),
                        outcome.lease().token()).isPositive();
                continue;
            }
            FencedResult<Integer> result = outcome.results().get(outcome.results().size() - 1);
            long row = outcome.op().rows().get(outcome.results().size() - 1);
            if (result.missing()) {
                missing++;
                continue;
            }
            refused++;
            assertThat(outcome.lease().token()).as(seed + "the last lease refused").isNotEqualTo(last);
            assertThat(result.highestToken()).as(seed + "refusal of %d on row %d", result.token(), row)
                    .isGreaterThan(result.token());
            assertThat(acceptedTokens.getOrDefault(row, Set.of())).as(seed + "the token that won on row %d", row)
                    .contains(result.highestToken());
        }
        return new Counts(acknowledged, refused, missing, conflicts);
    }

    private static List<Applied> audit(Connection connection, Database.Table table) throws SQLException {
        List<Applied> applied = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(
                "SELECT row_id, token, op FROM " + table.audit() + " ORDER BY seq")) {
            while (rows.next()) {
                applied.add(new Applied(rows.getLong(1), rows.getLong(2), rows.getString(3)));
            }
        }
        return applied;
    }

    /** Each row's balance, fence and deleted flag (1 for a tombstone). */
    private static Map<Long, long[]> rows(Connection connection, Database.Table table) throws SQLException {
        Map<Long, long[]> rows = new HashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery(
                "SELECT id, balance, fence, fence_deleted FROM " + table.name())) {
            while (row.next()) {
                rows.put(row.getLong(1), new long[] {row.getLong(2), row.getLong(3), row.getBoolean(4) ? 1 : 0});
            }
        }
        return rows;
    }
}
