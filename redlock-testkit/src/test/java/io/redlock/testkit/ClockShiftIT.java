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

    /**
     * Asserts that the server's clock reads this machine's plus {@code shift} seconds (to a second, the resolution
     * of TIME's first field), bracketing the TIME call by readings taken before and after it: a slow reply on a
     * loaded machine widens the bracket instead of failing the check.
     */
    private static void assertShifted(RedisServer server, long shift) {
        long before = System.currentTimeMillis() / 1000;
        long seconds = serverSeconds(server);
        long after = System.currentTimeMillis() / 1000;
        assertThat(seconds).as("the server's clock shifted by %d s", shift).isBetween(before + shift - 1,
                after + shift + 1);
    }

    /** How long an already expired key may take to be seen gone: far less than the 30 s TTLs below. */
    private static final Duration SEEN_GONE = Duration.ofSeconds(10);

    @Test
    void aJumpForwardExpiresAPxKeyAtOnce() {
        try (RedisServer server = RedisServer.builder().clockShift().start()) {
            assertShifted(server, 0);
            server.redis(r -> r.set("lock", "v", SetArgs.Builder.px(30_000)));
            server.shiftClock(Duration.ofSeconds(60));
            assertShifted(server, 60);
            // 60 s ahead, the 30 s key has expired: gone long before its TTL would have run out in real time
            await().atMost(SEEN_GONE).until(() -> server.get("lock") == null);
        }
    }

    @Test
    void aJumpBackKeepsKeysLongerAndZeroPutsTheClockRight() {
        try (RedisServer server = RedisServer.builder().clockShift().start()) {
            server.shiftClock(Duration.ofSeconds(-60));
            assertShifted(server, -60);
            server.redis(r -> r.set("k", "v", SetArgs.Builder.px(30_000)));
            server.shiftClock(Duration.ZERO);
            assertShifted(server, 0);
            // the key was set 60 s in the "past" with 30 s to live: back at real time it has expired, long before
            // its 30 s would have run out in real time
            await().atMost(SEEN_GONE).until(() -> server.get("k") == null);
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
