package io.redlock.fencing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Generated histories of fenced writes on real servers, at each server's default and strictest isolation level
 * (PostgreSQL READ COMMITTED, REPEATABLE READ, SERIALIZABLE; MariaDB REPEATABLE READ, SERIALIZABLE): {@value #LEASES}
 * leases granted in token order a moment apart, so that up to 8 write at once, a quarter of them paused after their
 * grant until two later leases are done (stale holders), each doing updates, fenced inserts of rows that may not
 * exist yet (upserts: holders race to create a row), deletes (tombstones) and transactions of two rows, conflicts
 * retried as documented. {@link HistoryCheck} states the properties checked on what the storage accepted: tokens
 * applied to a row never go down, no acknowledged write is lost, a refusal names the token that won, the newest lease
 * is never refused. Critical sections are not timed: only the storage's record is asserted.
 *
 * <p>{@value #SEEDS_PROPERTY} histories per level (default 3), seeds drawn at random and printed on failure;
 * {@code -Dfenced.seed=S} replays one.
 */
class FencedHistoriesIT extends BothDatabases {

    static final int LEASES = 30;
    static final String SEEDS_PROPERTY = "fenced.histories";

    private static final Logger log = LoggerFactory.getLogger(FencedHistoriesIT.class);

    static Stream<Arguments> levels() {
        return Stream.of(Database.READ_COMMITTED, Database.REPEATABLE_READ, Database.SERIALIZABLE)
                .map(level -> Arguments.of("PostgreSQL", level))
                .collect(java.util.stream.Collectors.collectingAndThen(java.util.stream.Collectors.toList(),
                        list -> Stream.concat(list.stream(), Stream.of(
                                Arguments.of("MariaDB", Database.REPEATABLE_READ),
                                Arguments.of("MariaDB", Database.SERIALIZABLE)))));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("levels")
    void staleHoldersNeverOverwriteNewerTokensAndNoAcknowledgedWriteIsLost(String server, Database.Isolation level)
            throws Exception {
        Database database = server.equals("PostgreSQL") ? postgres : mariadb;
        assertThat(database.isolations()).contains(level);
        int refused = 0;
        int acknowledged = 0;
        for (long seed : seeds()) {
            Database.Table table = database.newTable();
            Schedule schedule = Schedule.generate(seed, LEASES);
            List<Writer.Outcome> outcomes = HistoryRun.run(database, level, table, schedule);
            try (Connection connection = database.connect(database.defaultIsolation())) {
                HistoryCheck.Counts counts = HistoryCheck.check(connection, table, schedule, outcomes);
                log.info("{} {} seed {}: {}", server, level, seed, counts);
                refused += counts.refused();
                acknowledged += counts.acknowledged();
            }
        }
        assertThat(acknowledged).as("writes acknowledged").isPositive();
        assertThat(refused).as("stale writes refused: the paused holders must have written late").isPositive();
    }

    private static long[] seeds() {
        String fixed = System.getProperty("fenced.seed");
        if (fixed != null && !fixed.isBlank()) {
            return new long[] {Long.parseLong(fixed.trim())};
        }
        Random random = new Random();
        return random.longs(Integer.getInteger(SEEDS_PROPERTY, 3)).toArray();
    }
}
