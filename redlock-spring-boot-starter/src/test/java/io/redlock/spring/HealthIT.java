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
import io.redlock.testkit.WithRedisNodes;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/** The health indicator against five real, password-protected nodes: UP, then DOWN when three of them are killed. */
@ExtendWith(OutputCaptureExtension.class)
class HealthIT {

    private static final String PASSWORD = "health-pw-never-shown";

    @Test
    @WithRedisNodes(value = 5, args = {"--requirepass", PASSWORD})
    void upWithAMajorityThenDownWhenThreeOfFiveNodesAreKilled(RedisNodes nodes, CapturedOutput output) {
        try (ConfigurableApplicationContext app = LockedTestApp.start("health", new Sections(),
                "redlock.nodes=" + String.join(",", nodes.uris()))) {
            HealthIndicator indicator = app.getBean("redlockHealthIndicator", HealthIndicator.class);
            Health up = indicator.health();
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsEntry("quorum", 3).containsEntry("reachable", 5);
            Map<String, Object> perNode = map(up.getDetails().get("nodes"));
            assertThat(perNode).hasSize(5).containsKey(nodes.node(0).address());
            Map<String, Object> first = map(perNode.get(nodes.node(0).address()));
            assertThat(first.get("reachable")).isEqualTo(true);
            assertThat(first.get("role")).isEqualTo("master");
            assertThat(first.get("version")).asString().matches("\\d+\\.\\d+\\.\\d+");
            assertThat(up.toString()).doesNotContain(PASSWORD);

            nodes.node(0).kill();
            nodes.node(1).kill();
            assertThat(indicator.health().getStatus()).as("3 of 5 still answer").isEqualTo(Status.UP);
            nodes.node(2).kill();
            await().atMost(Duration.ofSeconds(15)).until(() -> indicator.health().getStatus().equals(Status.DOWN));
            Health down = indicator.health();
            assertThat(down.getDetails()).containsEntry("reachable", 2);
            Map<String, Object> killed = map(map(down.getDetails().get("nodes")).get(nodes.node(2).address()));
            assertThat(killed.get("reachable")).isEqualTo(false);
            assertThat(killed.get("error")).isNotNull();
            assertThat(down.toString()).doesNotContain(PASSWORD);

            // a failed acquisition counts the node errors, tagged host:port
            assertThatThrownBy(() -> app.getBean(Orders.class).reportOrFail("x"))
                    .isInstanceOf(LockNotAcquiredException.class);
            MeterRegistry registry = app.getBean(MeterRegistry.class);
            await().atMost(Duration.ofSeconds(5)).until(() -> registry.find("redlock.node.errors")
                    .tag("node", nodes.node(0).address()).counters().stream().mapToDouble(c -> c.count()).sum() > 0);
            assertThat(registry.find("redlock.node.errors").tag("node", nodes.node(3).address()).counters())
                    .as("a live node has no errors").isEmpty();
        }
        assertThat(output).contains("Redlock: 5 node(s)").doesNotContain(PASSWORD);
    }

    private static Map<String, Object> map(Object details) {
        Map<String, Object> copy = new java.util.LinkedHashMap<>();
        ((Map<?, ?>) details).forEach((key, value) -> copy.put(String.valueOf(key), value));
        return copy;
    }
}
