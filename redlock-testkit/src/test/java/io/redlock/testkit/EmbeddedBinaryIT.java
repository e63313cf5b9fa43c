package io.redlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fallback for machines without redis-server: the binary inside the embedded-redis jar, extracted and run even
 * where one is installed, serves every kind of command Redlock sends.
 */
class EmbeddedBinaryIT {

    private static final String COMPARE_AND_DELETE = """
            if redis.call('get', KEYS[1]) == ARGV[1] then
              return redis.call('del', KEYS[1])
            end
            return 0
            """;

    @Test
    void theEmbeddedBinaryIsChosenWhenNoRedisServerIsOnThePath(@TempDir Path noRedisHere) {
        assertThat(RedisBinary.locate(Map.of("PATH", noRedisHere.toString()))).isSameAs(RedisBinary.embedded());
        assertThat(RedisBinary.locate(Map.of())).isSameAs(RedisBinary.embedded());
    }

    @Test
    void redlockRedisServerEmbeddedChoosesItOverOneOnThePath(@TempDir Path bin) throws Exception {
        Path onPath = bin.resolve("redis-server"); // a stand-in that only answers --version
        Files.writeString(onPath, "#!/bin/sh\necho 'Redis server v=9.8.7 sha=00000000:0'\n");
        assertThat(onPath.toFile().setExecutable(true)).isTrue();
        RedisBinary fromPath = RedisBinary.locate(Map.of("PATH", bin.toString()));
        assertThat(fromPath.path()).isEqualTo(onPath);
        assertThat(fromPath.version()).isEqualTo("9.8.7");

        assertThat(RedisBinary.locate(Map.of("PATH", bin.toString(), RedisBinary.ENV_OVERRIDE, RedisBinary.EMBEDDED)))
                .isSameAs(RedisBinary.embedded());
    }

    @Test
    void embeddedBinaryServesSetNxPxScriptsConfigAndInfo() throws Exception {
        RedisBinary embedded = RedisBinary.embedded();
        assertThat(embedded.origin()).isEqualTo("embedded-redis jar");
        assertThat(Files.isExecutable(embedded.path())).isTrue();
        assertThat(embedded.majorVersion()).isGreaterThanOrEqualTo(6);

        RedisServer server = RedisServer.builder().binary(() -> embedded).build().start();
        long pid = server.pid();
        try {
            Path running = Path.of(ProcessHandle.of(pid).flatMap(p -> p.info().command()).orElseThrow());
            assertThat(running.toRealPath()).isEqualTo(embedded.path().toRealPath());
            assertThat(server.<String>redis(r -> r.info("server"))).contains("redis_version:" + embedded.version());

            SetArgs nxPx = SetArgs.Builder.nx().px(60_000);
            assertThat(server.<String>redis(r -> r.set("lock", "mine", nxPx))).isEqualTo("OK");
            assertThat(server.<String>redis(r -> r.set("lock", "theirs", nxPx))).isNull();
            assertThat(server.pttl("lock")).isBetween(1L, 60_000L);

            String sha = server.redis(r -> r.scriptLoad(COMPARE_AND_DELETE));
            Long notOurs = server.redis(r -> r.<Long>evalsha(sha, ScriptOutputType.INTEGER, new String[] {"lock"},
                    "theirs"));
            assertThat(notOurs).isZero();
            Long ours = server.redis(r -> r.<Long>eval(COMPARE_AND_DELETE, ScriptOutputType.INTEGER,
                    new String[] {"lock"}, "mine"));
            assertThat(ours).isOne();
            assertThat(server.get("lock")).isNull();

            assertThat(server.redis(r -> r.configGet("save")).get("save")).isEmpty();
            assertThat(server.redis(r -> r.configGet("appendonly")).get("appendonly")).isEqualTo("no");
            server.evictAnyKeyAbove(64L * 1024 * 1024);
            assertThat(server.redis(r -> r.configGet("maxmemory-policy")).get("maxmemory-policy"))
                    .isEqualTo("allkeys-lru");
        } finally {
            server.stop();
        }
        assertThat(server.isRunning()).isFalse();
        await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
        server.close();
        assertThat(Files.exists(server.dir())).isFalse();
    }
}
