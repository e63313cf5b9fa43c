package io.redlock;

import static io.redlock.EveryNodeAnswers.NODE_TIMEOUT;
import static io.redlock.EveryNodeAnswers.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** redlock.ping() asks every real node at once and never waits longer than the per-node timeout for one. */
class PingIT {

    private static final String PASSWORD = "ping-pw-never-shown";

    @Test
    @WithRedisNodes(value = 3, args = {"--requirepass", PASSWORD})
    void reportsEachNodeAndAStalledOneAfterTheNodeTimeout(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            List<PingResult> all = redlock.ping();
            assertThat(all).extracting(PingResult::node).containsExactly(nodes.node(0).address(),
                    nodes.node(1).address(), nodes.node(2).address());
            assertThat(all).allSatisfy(ping -> {
                assertThat(ping.answered()).isTrue();
                assertThat(ping.latency()).get().satisfies(l -> assertThat(l).isBetween(Duration.ZERO, NODE_TIMEOUT));
            });

            nodes.node(1).pause();
            try {
                long start = System.nanoTime();
                List<PingResult> stalled = redlock.ping();
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                // the nodes are asked at once, not one after another: one timeout, not two or three
                assertThat(took).as("waited for the stalled node, but only the node timeout")
                        .isGreaterThanOrEqualTo(NODE_TIMEOUT).isLessThan(NODE_TIMEOUT.multipliedBy(2));
                assertThat(stalled.get(0).answered()).isTrue();
                assertThat(stalled.get(2).answered()).isTrue();
                assertThat(stalled.get(1).answered()).isFalse();
                assertThat(stalled.get(1).latency()).isEmpty();
                assertThat(stalled.get(1).problem()).contains("no reply to PING within 2000 ms");
            } finally {
                nodes.node(1).resume();
            }

            nodes.node(2).kill();
            PingResult down = redlock.ping().get(2);
            assertThat(down.answered()).isFalse();
            assertThat(down.problem()).get().asString().isNotBlank().doesNotContain(PASSWORD);
        }
    }

    @Test
    @WithRedisNodes(1)
    void aClosedRedlockRefusesToPing(RedisNodes nodes) {
        Redlock redlock = redlockOn(nodes).build();
        assertThat(redlock.ping()).singleElement().satisfies(ping -> assertThat(ping.answered()).isTrue());
        redlock.close();
        assertThatThrownBy(redlock::ping).isInstanceOf(RedlockException.class).hasMessageContaining("closed");
    }

    @Test
    void aResultIsEitherAnsweredOrUnanswered() {
        assertThat(PingResult.answered("h:1", Duration.ofMillis(2)).answered()).isTrue();
        assertThat(PingResult.unanswered("h:1", "down").answered()).isFalse();
        assertThatThrownBy(() -> new PingResult("h:1", java.util.Optional.of(Duration.ZERO),
                java.util.Optional.of("down"))).isInstanceOf(IllegalArgumentException.class);
    }
}
