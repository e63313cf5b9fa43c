package io.redlock.fencing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.testkit.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** FencedRedis against a real Redis used as storage. */
class FencedRedisIT {

    private RedisServer storage;
    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;
    private FencedRedis fenced;

    @BeforeEach
    void start() {
        storage = RedisServer.launch();
        client = RedisClient.create(storage.uri());
        connection = client.connect();
        fenced = FencedRedis.on(connection);
    }

    @AfterEach
    void stop() {
        connection.close();
        client.shutdown();
        storage.close();
    }

    @Test
    void acceptsIncreasingTokensAndKeepsTheHighWaterMarkBesideTheKey() {
        assertThat(fenced.set("balance", "10", new Fence(3, "a")).accepted()).isTrue();
        assertThat(fenced.set("balance", "20", new Fence(8, "b")).accepted()).isTrue();
        assertThat(storage.get("balance")).isEqualTo("20");
        java.util.Map<String, String> highWater = storage.redis(r -> r.hgetall("balance" + FencedRedis.HIGH_WATER_SUFFIX));
        assertThat(highWater)
                .containsEntry("token", "8").containsEntry("owner", "b");
        assertThat(fenced.highestToken("balance")).isEqualTo(8);
    }

    @Test
    void rejectsAStaleWriteSayingWhichTokenWonAndLeavesTheValue() {
        fenced.set("balance", "20", new Fence(8, "b")).orElseThrow();
        FencedResult<Void> stale = fenced.set("balance", "999", new Fence(3, "a"));
        assertThat(stale.accepted()).isFalse();
        assertThat(stale.highestToken()).isEqualTo(8);
        assertThat(storage.get("balance")).isEqualTo("20");
        assertThatThrownBy(stale::orElseThrow).isInstanceOfSatisfying(StaleTokenException.class, e -> {
            assertThat(e.token()).isEqualTo(3);
            assertThat(e.highestToken()).isEqualTo(8);
        });
    }

    @Test
    void anEqualTokenIsAcceptedOnlyFromTheSameLease() {
        fenced.set("k", "1", new Fence(5, "lease-a")).orElseThrow();
        assertThat(fenced.set("k", "2", new Fence(5, "lease-a")).accepted()).isTrue();
        assertThat(fenced.set("k", "3", new Fence(5, "lease-z")).accepted()).isFalse();
        assertThat(fenced.get("k", new Fence(5, "lease-z")).accepted()).isFalse();
        assertThat(storage.get("k")).isEqualTo("2");
    }

    @Test
    void aFencedReadRecordsItsTokenSoAnOlderHolderCannotWriteBack() {
        fenced.set("counter", "41", new Fence(1, "old")).orElseThrow();
        String oldRead = fenced.get("counter", new Fence(1, "old")).orElseThrow();
        String newRead = fenced.get("counter", new Fence(2, "new")).orElseThrow(); // newer holder reads, no write yet
        assertThat(newRead).isEqualTo(oldRead);
        assertThat(fenced.set("counter", Integer.toString(Integer.parseInt(oldRead) + 1), new Fence(1, "old"))
                .accepted()).isFalse();
        fenced.set("counter", Integer.toString(Integer.parseInt(newRead) + 1), new Fence(2, "new")).orElseThrow();
        assertThat(storage.get("counter")).isEqualTo("42");
    }

    @Test
    void readsOfAStaleTokenAreRefusedAndReturnNoValue() {
        fenced.set("k", "v", new Fence(4, "b")).orElseThrow();
        FencedResult<String> read = fenced.get("k", new Fence(2, "a"));
        assertThat(read.accepted()).isFalse();
        assertThat(read.value()).isNull();
        assertThat(fenced.get("missing", new Fence(1, "a")).orElseThrow()).isNull();
    }

    @Test
    void hashFieldsAreFencedToo() {
        fenced.hset("account:1", "balance", "100", new Fence(10, "a")).orElseThrow();
        assertThat(fenced.hset("account:1", "balance", "0", new Fence(9, "z")).accepted()).isFalse();
        assertThat(fenced.hget("account:1", "balance", new Fence(11, "b")).orElseThrow()).isEqualTo("100");
        String stored = storage.redis(r -> r.hget("account:1", "balance"));
        assertThat(stored).isEqualTo("100");
    }

    @Test
    void worksAfterTheStorageForgotItsScripts() {
        fenced.set("k", "1", new Fence(1, "a")).orElseThrow();
        storage.redis(r -> r.scriptFlush());
        assertThat(fenced.set("k", "2", new Fence(2, "a")).accepted()).isTrue();
    }
}
