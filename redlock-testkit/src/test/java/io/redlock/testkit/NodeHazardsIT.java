package io.redlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The node hazards of the testkit have their effect on a real server: DEBUG SLEEP, CLIENT PAUSE WRITE, eviction. */
class NodeHazardsIT {

    /** The base time unit every wait here derives from. */
    private static final Duration UNIT = Duration.ofMillis(500);

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    /** Runs {@code body} on a connection of its own with a command timeout of 10 units. */
    private static void withConnection(RedisServer server, java.util.function.Consumer<RedisCommands<String, String>>
            body) {
        withStatefulConnection(server, connection -> body.accept(connection.sync()));
    }

    /** Runs {@code body} with a connection of its own with a command timeout of 10 units. */
    private static void withStatefulConnection(RedisServer server,
            java.util.function.Consumer<StatefulRedisConnection<String, String>> body) {
        RedisURI uri = RedisURI.builder().withHost(server.host()).withPort(server.port())
                .withTimeout(UNIT.multipliedBy(10)).build();
        RedisClient client = RedisClient.create(uri);
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            body.accept(connection);
        } finally {
            client.shutdown();
        }
    }

    /**
     * Waits until the server leaves a PING on {@code probe} (a connection of its own, opened before) unanswered for a
     * whole unit, as it does once a DEBUG SLEEP runs: sent from another thread, the sleep may reach the server late
     * on a loaded machine, so a fixed pause would be a guess.
     */
    private static void awaitSilent(StatefulRedisConnection<String, String> probe) {
        await().atMost(UNIT.multipliedBy(20)).pollInterval(Duration.ofMillis(10))
                .until(() -> !probe.async().ping().await(UNIT.toMillis(), TimeUnit.MILLISECONDS));
    }

    @Test
    void debugSleepStallsEveryReplyUntilTheSleepEnds() throws Exception {
        try (RedisServer server = RedisServer.launch()) {
            withStatefulConnection(server, probe -> withConnection(server, redis -> {
                assertThat(redis.ping()).isEqualTo("PONG");
                long start = System.nanoTime();
                CompletableFuture<Void> awake = server.debugSleep(UNIT.multipliedBy(4));
                awaitSilent(probe); // the DEBUG SLEEP is running by now
                assertThat(redis.ping()).isEqualTo("PONG");
                // the sleep began after start and lasts 4 units: a PING served after it began waited for its end
                assertThat(millisSince(start)).as("the PING waited for the sleep to end")
                        .isGreaterThanOrEqualTo(UNIT.multipliedBy(4).toMillis() - UNIT.toMillis() / 5);
                awake.join();
            }));
        }
    }

    @Test
    void clientPauseWriteBlocksAWriteButNotARead() throws Exception {
        try (RedisServer server = RedisServer.launch()) {
            withConnection(server, redis -> {
                redis.set("k", "before");
                long start = System.nanoTime();
                server.pauseWrites(UNIT.multipliedBy(4));
                assertThat(redis.get("k")).isEqualTo("before");
                // the pause began before pauseWrites returned and lasts 4 units from then: an earlier answer came
                // during it
                assertThat(millisSince(start)).as("a read is served during the pause")
                        .isLessThan(UNIT.multipliedBy(4).toMillis());
                redis.set("k", "after");
                assertThat(millisSince(start)).as("the write waited for the pause to end")
                        .isGreaterThanOrEqualTo(UNIT.multipliedBy(4).toMillis() - UNIT.toMillis() / 5);
                assertThat(redis.get("k")).isEqualTo("after");
            });
        }
    }

    @Test
    void evictAnyKeyAboveEvictsKeysWithoutExpiryUnderMemoryPressure() {
        try (RedisServer server = RedisServer.launch()) {
            server.redis(r -> r.set("victim", "v"));
            long used = Long.parseLong(info(server, "memory", "used_memory"));
            server.evictAnyKeyAbove(used + 256 * 1024);
            assertThat(server.redis(r -> r.configGet("maxmemory-policy")).get("maxmemory-policy"))
                    .isEqualTo("allkeys-lru");
            String junk = "x".repeat(1024);
            for (int batch = 0; batch < 50 && server.get("victim") != null; batch++) {
                Map<String, String> keys = new HashMap<>();
                for (int i = 0; i < 100; i++) {
                    keys.put("junk:" + batch + ":" + i, junk);
                }
                server.redis(r -> r.mset(keys)); // accepted: allkeys-lru makes room instead of refusing
            }
            assertThat(server.get("victim")).as("the key without expiry was evicted").isNull();
            assertThat(Long.parseLong(info(server, "stats", "evicted_keys"))).isPositive();
        }
    }

    private static String info(RedisServer server, String section, String field) {
        String info = server.redis(r -> r.info(section));
        return info.lines().filter(l -> l.startsWith(field + ":")).findFirst().orElseThrow()
                .substring(field.length() + 1).trim();
    }
}
