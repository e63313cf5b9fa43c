package io.redlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.TestInjection;
import io.redlock.internal.parts.FaultHooks;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Kleppmann's scenario on real nodes: the client is paused inside the library (a GC pause after its last validity
 * check, {@link FaultHooks.Point#AFTER_HANDOVER}) until its lease has run out everywhere; a newer holder takes the
 * lock; the old holder is handed its already stale lease and does a read-modify-write interleaved with the newer
 * holder's. Fencing refuses the stale write at the storage; no update is lost.
 */
@WithRedisNodes(5)
class StaleHolderIT {

    private static final String RESOURCE = "counter";
    /** Run out during the pause the test puts the client in; long enough for each acquisition on a loaded machine. */
    private static final Duration TTL = Duration.ofSeconds(2);
    private static final Duration PATIENCE = TTL.multipliedBy(10);

    private final FaultHooks hooks = new FaultHooks();

    private Redlock redlock(RedisNodes nodes) {
        return TestInjection.with(Redlock.builder(), hooks).nodes(nodes.uriArray()).nodeTimeout(Duration.ofMillis(500))
                .build();
    }

    /**
     * Client {@code a} acquires and is paused in the library right after its last check, until its lock keys have
     * expired on every node and client {@code b} holds the lock; then {@code a} gets its lease, already stale.
     *
     * @return {@code a}'s stale lease and {@code b}'s newer one
     */
    private Lease[] staleAndNewer(Redlock a, Redlock b, RedisNodes nodes) throws Exception {
        CompletableFuture<Void> resume = new CompletableFuture<>();
        hooks.armUntil(RESOURCE, FaultHooks.Point.AFTER_HANDOVER, resume, PATIENCE);
        // from a thread of its own: when the replies are in before the call returns, the pause fires on the calling
        // thread, which must not be this one
        CompletableFuture<Optional<Lease>> pending = CompletableFuture
                .supplyAsync(() -> a.tryAcquireAsync(RESOURCE, TTL)).thenCompose(Function.identity());
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(10))
                .until(() -> !hooks.isArmed(RESOURCE, FaultHooks.Point.AFTER_HANDOVER));
        // a is paused holding a majority; its keys expire meanwhile (the pause outlasts the TTL)
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(20))
                .until(() -> nodes.servers().stream().allMatch(n -> n.get(RESOURCE) == null));
        Lease newer = b.tryAcquire(RESOURCE, TTL).orElseThrow();
        resume.complete(null);
        Lease old = pending.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS).orElseThrow();
        assertThat(old.isValid()).as("the lease was handed over after it had run out").isFalse();
        assertThat(newer.fencingToken()).isGreaterThan(old.fencingToken());
        return new Lease[] {old, newer};
    }

    @Test
    void aStaleHoldersReadModifyWriteIsRejectedByFencedRedisAndNoIncrementIsLost(RedisNodes nodes)
            throws Exception {
        try (RedisServer storage = RedisServer.launch(); Redlock a = redlock(nodes); Redlock b = redlock(nodes)) {
            RedisClient client = RedisClient.create(storage.uri());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                FencedRedis fenced = FencedRedis.on(connection);
                storage.redis(r -> r.set(RESOURCE, "0"));
                Lease[] leases = staleAndNewer(a, b, nodes);
                Fence old = Fence.of(leases[0]);
                Fence newer = Fence.of(leases[1]);

                // the stale holder reads first: nobody newer has touched the storage yet, so the read is accepted
                int oldRead = Integer.parseInt(fenced.get(RESOURCE, old).orElseThrow());
                int acknowledged = 0;
                for (int i = 0; i < 2; i++) {
                    int read = Integer.parseInt(fenced.get(RESOURCE, newer).orElseThrow());
                    assertThat(fenced.set(RESOURCE, Integer.toString(read + 1), newer).accepted()).isTrue();
                    acknowledged++;
                }

                FencedResult<Void> staleWrite = fenced.set(RESOURCE, Integer.toString(oldRead + 1), old);
                assertThat(staleWrite.accepted()).isFalse();
                assertThat(staleWrite.highestToken()).isEqualTo(leases[1].fencingToken());
                assertThat(storage.get(RESOURCE)).isEqualTo(Integer.toString(acknowledged));
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void aStaleHoldersReadModifyWriteIsRejectedByFencedJdbcAndNoIncrementIsLost(RedisNodes nodes) throws Exception {
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
            Lease[] leases = staleAndNewer(a, b, nodes);
            Fence old = Fence.of(leases[0]);
            Fence newer = Fence.of(leases[1]);

            // the stale holder reads first: nobody newer has touched the row yet, so its claim is accepted
            accounts.claim(db, 7, old).orElseThrow();
            int oldRead = balance(db);
            int acknowledged = 0;
            for (int i = 0; i < 2; i++) {
                accounts.claim(db, 7, newer).orElseThrow();
                accounts.update(db, 7, newer, "balance = ?", balance(db) + 1).orElseThrow();
                acknowledged++;
            }

            FencedResult<Integer> stale = accounts.update(db, 7, old, "balance = ?", oldRead + 1);
            assertThat(stale.accepted()).isFalse();
            assertThat(stale.highestToken()).isEqualTo(leases[1].fencingToken());
            assertThat(balance(db)).isEqualTo(100 + acknowledged);
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
