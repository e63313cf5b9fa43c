package io.redlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.SetArgs;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The LD_PRELOAD clock shim on a real redis-server: Redis expires keys by the wall clock it sees. */
class ClockShiftIT {

    private static long serverSeconds(RedisServer server) {
        List<String> time = server.redis(r -> r.time());
        return Long.parseLong(time.get(0));
    }

    @Test
    void aJumpForwardExpiresAPxKeyAtOnce() {
        try (RedisServer server = RedisServer.builder().clockShift().start()) {
            long before = serverSeconds(server);
            assertThat(Math.abs(before - System.currentTimeMillis() / 1000)).isLessThanOrEqualTo(1);
            server.redis(r -> r.set("lock", "v", SetArgs.Builder.px(30_000)));
            server.shiftClock(Duration.ofSeconds(60));
            assertThat(serverSeconds(server) - System.currentTimeMillis() / 1000).isBetween(59L, 61L);
            await().atMost(Duration.ofMillis(500)).until(() -> server.get("lock") == null);
        }
    }

    @Test
    void aJumpBackKeepsKeysLongerAndZeroPutsTheClockRight() {
        try (RedisServer server = RedisServer.builder().clockShift().start()) {
            server.shiftClock(Duration.ofSeconds(-60));
            assertThat(System.currentTimeMillis() / 1000 - serverSeconds(server)).isBetween(59L, 61L);
            server.redis(r -> r.set("k", "v", SetArgs.Builder.px(1_000)));
            server.shiftClock(Duration.ZERO);
            assertThat(Math.abs(serverSeconds(server) - System.currentTimeMillis() / 1000)).isLessThanOrEqualTo(1);
            // the key was set 60 s in the "past" with 1 s to live: back at real time it has long expired
            await().atMost(Duration.ofMillis(500)).until(() -> server.get("k") == null);
        }
    }

    @Test
    void theShimIsCompiledIntoTheBuildDirectoryMavenNames() {
        String buildDir = System.getProperty(ClockShim.BUILD_DIR_PROPERTY);
        Path library = ClockShim.library();
        assertThat(library).isRegularFile();
        Path expectedParent = buildDir != null ? Path.of(buildDir, "clockshift")
                : Path.of(System.getProperty("java.io.tmpdir"));
        assertThat(library.toAbsolutePath().normalize()).startsWith(expectedParent.toAbsolutePath().normalize());
    }

    @Test
    void withoutTheShimTheClockCannotBeShifted() {
        try (RedisServer server = RedisServer.launch()) {
            assertThatThrownBy(() -> server.shiftClock(Duration.ofSeconds(1)))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("clockShift()");
        }
    }
}
