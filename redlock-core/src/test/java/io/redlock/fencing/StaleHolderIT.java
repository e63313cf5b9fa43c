package io.redlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.WithRedisNodes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Kleppmann's scenario on real nodes: a holder pauses past its validity (a GC pause), a newer holder takes the lock
 * and writes, the old one wakes up and writes too. Fencing refuses the stale write at the storage; no update is lost.
 */
@WithRedisNodes(5)
class StaleHolderIT {

    private static final Duration TTL = Duration.ofMillis(500);

    private static Redlock redlock(RedisNodes nodes) {
        return Redlock.builder().nodes(nodes.uriArray()).nodeTimeout(Duration.ofMillis(100)).build();
    }

    /** The holder's "GC pause": it does nothing until its lease has run out and the keys are gone. */
    private static void pausePastValidity(Lease lease, RedisNodes nodes) {
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> !lease.isValid() && nodes.servers().stream().allMatch(n -> n.get("counter") == null));
    }

    @Test
    void aStaleHoldersWriteIsRejectedByFencedRedisAndNoIncrementIsLost(RedisNodes nodes) {
        try (RedisServer storage = RedisServer.launch(); Redlock a = redlock(nodes); Redlock b = redlock(nodes)) {
            RedisClient client = RedisClient.create(storage.uri());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                FencedRedis fenced = FencedRedis.on(connection);
                storage.redis(r -> r.set("counter", "0"));

                Lease old = a.tryAcquire("counter", TTL).orElseThrow();
                int oldRead = Integer.parseInt(fenced.get("counter", Fence.of(old)).orElseThrow());
                pausePastValidity(old, nodes);

                Lease newer = b.tryAcquire("counter", TTL).orElseThrow();
                assertThat(newer.fencingToken()).isGreaterThan(old.fencingToken());
                int newRead = Integer.parseInt(fenced.get("counter", Fence.of(newer)).orElseThrow());
                assertThat(fenced.set("counter", Integer.toString(newRead + 1), Fence.of(newer)).accepted()).isTrue();
                int acknowledged = 1;

                FencedResult<Void> staleWrite = fenced.set("counter", Integer.toString(oldRead + 1), Fence.of(old));
                assertThat(staleWrite.accepted()).isFalse();
                assertThat(staleWrite.highestToken()).isEqualTo(newer.fencingToken());
                assertThat(storage.get("counter")).isEqualTo(Integer.toString(acknowledged));
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void aStaleHoldersUpdateIsRejectedByFencedJdbcAndNoIncrementIsLost(RedisNodes nodes) throws Exception {
        FencedJdbc accounts = FencedJdbc.forTable("account", "id");
        try (Connection db = DriverManager.getConnection("jdbc:h2:mem:stale" + System.nanoTime());
                Redlock a = redlock(nodes); Redlock b = redlock(nodes)) {
            try (Statement ddl = db.createStatement()) {
                ddl.execute("CREATE TABLE account (id INT PRIMARY KEY, balance INT NOT NULL)");
                for (String statement : accounts.ddl()) {
                    ddl.execute(statement);
                }
                ddl.execute("INSERT INTO account (id, balance) VALUES (7, 100)");
            }
            Lease old = a.tryAcquire("counter", TTL).orElseThrow();
            accounts.claim(db, 7, Fence.of(old)).orElseThrow();
            int oldRead = balance(db);
            pausePastValidity(old, nodes);

            Lease newer = b.tryAcquire("counter", TTL).orElseThrow();
            accounts.claim(db, 7, Fence.of(newer)).orElseThrow();
            accounts.update(db, 7, Fence.of(newer), "balance = ?", balance(db) + 1).orElseThrow();

            FencedResult<Integer> stale = accounts.update(db, 7, Fence.of(old), "balance = ?", oldRead + 1);
            assertThat(stale.accepted()).isFalse();
            assertThat(stale.highestToken()).isEqualTo(newer.fencingToken());
            assertThat(balance(db)).isEqualTo(101);
        }
    }

    private static int balance(Connection db) throws Exception {
        try (Statement select = db.createStatement();
                ResultSet row = select.executeQuery("SELECT balance FROM account WHERE id = 7")) {
            row.next();
            return row.getInt(1);
        }
    }
}
