package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.redlock.LockNotAcquiredException;
import io.redlock.spring.app.LockedTestApp;
import io.redlock.spring.app.Orders;
import io.redlock.spring.app.Sections;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The health indicator against real, password-protected nodes: UP while a majority answers PING, DOWN when three of
 * five are killed, and a stalled (SIGSTOPped) node reported as not answering after one node timeout.
 */
@ExtendWith(OutputCaptureExtension.class)
class HealthIT {

    private static final String PASSWORD = "health-pw-never-shown";
    /** The node timeout: generous, so that live nodes answer in time on a loaded machine; margins derive from it. */
    private static final Duration NODE_TIMEOUT = Duration.ofMillis(800);
    /** Room beyond the node timeout for a health check on a loaded machine: a bound, not a measurement. */
    private static final Duration ROOM = Duration.ofSeconds(10);
    private static final String NODE_TIMEOUT_PROPERTY = "redlock.node-timeout=" + NODE_TIMEOUT.toMillis() + "ms";

    @Test
    @WithRedisNodes(value = 5, args = {"--requirepass", PASSWORD})
    void upWithAMajorityThenDownWhenThreeOfFiveNodesAreKilled(RedisNodes nodes, CapturedOutput output) {
        try (ConfigurableApplicationContext app = LockedTestApp.start("health", new Sections(),
                "redlock.nodes=" + String.join(",", nodes.uris()), NODE_TIMEOUT_PROPERTY)) {
            // every live node answers within the node timeout (a loaded machine may miss one round: asked again)
            await().atMost(Duration.ofSeconds(30)).until(() -> BootLine.health(app).details().get("answered")
                    .equals(5));
            BootLine.Checked up = BootLine.health(app);
            assertThat(up.up()).isTrue();
            assertThat(up.details()).containsEntry("quorum", 3).containsEntry("answered", 5)
                    .containsEntry("nodeTimeout", NODE_TIMEOUT.toMillis() + "ms");
            Map<String, Object> perNode = map(up.details().get("nodes"));
            assertThat(perNode).hasSize(5).containsKey(nodes.node(0).address());
            Map<String, Object> first = map(perNode.get(nodes.node(0).address()));
            assertThat(first.get("answered")).isEqualTo(true);
            assertThat(first.get("latencyMs")).isInstanceOfSatisfying(BigDecimal.class,
                    latency -> assertThat(latency).isBetween(BigDecimal.ZERO, new BigDecimal(NODE_TIMEOUT.toMillis())));
            assertThat(up.text()).doesNotContain(PASSWORD);

            nodes.node(0).kill();
            nodes.node(1).kill();
            await("3 of 5 still answer").atMost(Duration.ofSeconds(30)).until(() -> BootLine.health(app).up());
            nodes.node(2).kill();
            await().atMost(Duration.ofSeconds(15)).until(() -> !BootLine.health(app).up());
            BootLine.Checked down = BootLine.health(app);
            assertThat(down.details()).containsEntry("answered", 2);
            Map<String, Object> killed = map(map(down.details().get("nodes")).get(nodes.node(2).address()));
            assertThat(killed.get("answered")).isEqualTo(false);
            assertThat(killed.get("error")).asString().isNotBlank();
            assertThat(down.text()).doesNotContain(PASSWORD);

            // an acquisition that loses the quorum to dead nodes is an error, not busy; node errors tagged host:port
            MeterRegistry registry = app.getBean(MeterRegistry.class);
            long busy = registry.get("redlock.acquire").tags("kind", "lock", "result", "busy").timer().count();
            long errors = registry.get("redlock.acquire").tags("kind", "lock", "result", "error").timer().count();
            assertThatThrownBy(() -> app.getBean(Orders.class).reportOrFail("x"))
                    .isInstanceOf(LockNotAcquiredException.class);
            assertThat(registry.get("redlock.acquire").tags("kind", "lock", "result", "error").timer().count())
                    .isEqualTo(errors + 1);
            assertThat(registry.get("redlock.acquire").tags("kind", "lock", "result", "busy").timer().count())
                    .isEqualTo(busy);
            await().atMost(Duration.ofSeconds(5)).until(() -> registry.find("redlock.node.errors")
                    .tag("node", nodes.node(0).address()).counters().stream().mapToDouble(c -> c.count()).sum() > 0);
            assertThat(registry.find("redlock.node.errors").tag("node", nodes.node(3).address()).counters())
                    .as("a live node has no errors").isEmpty();
        }
        assertThat(output).contains("Redlock: 5 node(s)").doesNotContain(PASSWORD);
    }

    @Test
    @WithRedisNodes(3)
    void aStalledNodeIsReportedWithinTheNodeTimeoutAndTheMajorityDecides(RedisNodes nodes) {
        try (ConfigurableApplicationContext app = LockedTestApp.start("stalled", new Sections(),
                "redlock.nodes=" + String.join(",", nodes.uris()), NODE_TIMEOUT_PROPERTY)) {
            assertThat(BootLine.health(app).up()).isTrue();
            try {
                nodes.node(0).pause();
                long start = System.nanoTime();
                BootLine.Checked oneStalled = BootLine.health(app);
                Duration took = Duration.ofNanos(System.nanoTime() - start);
                assertThat(took).as("waited the node timeout for the stalled node, not until it came back")
                        .isGreaterThanOrEqualTo(NODE_TIMEOUT).isLessThan(NODE_TIMEOUT.plus(ROOM));
                assertThat(oneStalled.up()).as("2 of 3 answer").isTrue();
                assertThat(oneStalled.details()).containsEntry("answered", 2);
                Map<String, Object> stalled = map(map(oneStalled.details().get("nodes"))
                        .get(nodes.node(0).address()));
                assertThat(stalled).containsEntry("answered", false)
                        .containsEntry("error", "no reply to PING within " + NODE_TIMEOUT.toMillis() + " ms");

                nodes.node(1).pause();
                start = System.nanoTime();
                BootLine.Checked twoStalled = BootLine.health(app);
                took = Duration.ofNanos(System.nanoTime() - start);
                assertThat(twoStalled.status()).as("1 of 3 answers").isEqualTo("DOWN");
                assertThat(twoStalled.details()).containsEntry("answered", 1);
                assertThat(took).as("not until they came back").isLessThan(NODE_TIMEOUT.plus(ROOM));
            } finally {
                nodes.node(0).resume();
                nodes.node(1).resume();
            }
            await().atMost(Duration.ofSeconds(15)).until(() -> BootLine.health(app).up());
        }
    }

    private static Map<String, Object> map(Object details) {
        Map<String, Object> copy = new java.util.LinkedHashMap<>();
        ((Map<?, ?>) details).forEach((key, value) -> copy.put(String.valueOf(key), value));
        return copy;
    }
}
