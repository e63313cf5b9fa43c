package io.redlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.ConnectException;
import java.net.Socket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class RedisServerIT {

    @Test
    void startsARealServerOnALoopbackPortWithoutPersistence() {
        try (RedisServer server = RedisServer.launch()) {
            assertThat(server.uri()).startsWith("redis://127.0.0.1:");
            assertThat(server.ping()).isEqualTo("PONG");
            assertThat(server.redis(r -> r.configGet("save")).get("save")).isEmpty();
            assertThat(server.redis(r -> r.configGet("appendonly")).get("appendonly")).isEqualTo("no");
            assertThat(server.redis(r -> r.configGet("dir")).get("dir")).isEqualTo(server.dir().toString());
            assertThat(ProcessHandle.of(server.pid())).isPresent();
        }
    }

    @Test
    void aServerRunsUnderTheCommandItIsGivenInItsOwnProcess() {
        try (RedisServer server = RedisServer.builder().under("env", "REDLOCK_WRAPPED=1").start()) {
            assertThat(server.ping()).isEqualTo("PONG");
            ProcessHandle process = ProcessHandle.of(server.pid()).orElseThrow();
            assertThat(process.info().command()).hasValueSatisfying(command -> assertThat(command)
                    .as("env became the server").doesNotEndWith("/env"));
            String info = server.redis(r -> r.info("server"));
            assertThat(info).contains("process_id:" + server.pid());
        }
    }

    @Test
    void aServerNeverClaimsAPortAnotherServerAnswersOn() {
        try (RedisServer first = RedisServer.launch()) {
            RedisServer second = RedisServer.builder().port(first.port()).build();
            // the first server answers PING on that port; the second's own process must fail to bind, and say so
            assertThatThrownBy(second::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("in use");
            second.close();
            assertThat(first.ping()).isEqualTo("PONG");
        }
    }

    @Test
    void extraArgumentsOverrideTheDefaults() {
        try (RedisServer server = RedisServer.launch("--appendonly", "yes", "--maxmemory-policy", "allkeys-lru")) {
            assertThat(server.redis(r -> r.configGet("appendonly")).get("appendonly")).isEqualTo("yes");
            assertThat(server.redis(r -> r.configGet("maxmemory-policy")).get("maxmemory-policy"))
                    .isEqualTo("allkeys-lru");
        }
    }

    @Test
    void killLosesEveryKeyAndRestartComesBackEmptyOnTheSamePort() {
        try (RedisServer server = RedisServer.launch()) {
            int port = server.port();
            long pid = server.pid();
            server.redis(r -> r.set("k", "v"));
            assertThat(server.get("k")).isEqualTo("v");
            server.restart();
            assertThat(server.port()).isEqualTo(port);
            assertThat(server.pid()).isNotEqualTo(pid);
            assertThat(ProcessHandle.of(pid)).isEmpty();
            assertThat(server.get("k")).isNull();
        }
    }

    @Test
    void restartAfterKeepsTheNodeDownForTheDowntime() {
        try (RedisServer server = RedisServer.launch()) {
            long killedAt = System.nanoTime();
            CompletableFuture<Void> back = server.restartAfter(Duration.ofSeconds(1));
            assertThat(server.isRunning()).isFalse();
            assertThatThrownBy(() -> new Socket(server.host(), server.port()).close())
                    .isInstanceOf(ConnectException.class);
            back.join();
            assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            assertThat(server.ping()).isEqualTo("PONG");
        }
    }

    @Test
    void pauseStopsAnsweringAndResumeAnswersAgain() throws Exception {
        try (RedisServer server = RedisServer.launch()) {
            server.pause();
            assertThat(server.isPaused()).isTrue();
            CompletableFuture<String> ping = CompletableFuture.supplyAsync(server::ping);
            Thread.sleep(300); // a deliberate window in which a paused server must not answer
            assertThat(ping).isNotDone();
            server.resume();
            assertThat(ping.get()).isEqualTo("PONG");
        }
    }

    @Test
    void stopEndsAPausedServerToo() {
        RedisServer server = RedisServer.launch();
        long pid = server.pid();
        server.pause();
        server.stop();
        assertThat(server.isRunning()).isFalse();
        await().atMost(Duration.ofSeconds(5)).until(() -> ProcessHandle.of(pid).isEmpty());
        server.close();
        assertThat(Files.exists(server.dir())).isFalse();
    }

    @Test
    void passwordIsRequiredAndCarriedInTheUri() {
        try (RedisServer server = RedisServer.builder().password("s3cret").start()) {
            assertThat(server.uri()).isEqualTo("redis://:s3cret@" + server.address());
            assertThat(server.ping()).isEqualTo("PONG");
            assertThat(server.redis(r -> r.configGet("requirepass")).get("requirepass")).isEqualTo("s3cret");
        }
    }

    @Test
    void argumentsThatHideTheReadyLogLineAreRejected() {
        assertThatThrownBy(() -> RedisServer.builder().args("--loglevel", "warning").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--loglevel warning");
        assertThatThrownBy(() -> RedisServer.builder().args("--logfile", "/tmp/elsewhere.log").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--logfile");
        try (RedisServer verbose = RedisServer.launch("--loglevel", "verbose")) {
            assertThat(verbose.ping()).isEqualTo("PONG");
        }
    }

    @Test
    void reportsTheBinaryAndItsVersion() {
        RedisBinary binary = RedisBinary.get();
        assertThat(binary.version()).matches("\\d+\\.\\d+\\.\\d+");
        assertThat(binary.majorVersion()).isGreaterThanOrEqualTo(6);
        assertThat(Files.isExecutable(binary.path())).isTrue();
    }
}
