package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.redlock.LockNotAcquiredException;
import io.redlock.spring.app.LockedTestApp;
import io.redlock.spring.app.Orders;
import io.redlock.spring.app.Sections;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Node trouble shows: {@code onBusy = SKIP} does not hide an outage (a call skipped because too few nodes answered
 * logs a WARN, one a minute per method, counts as {@code result=error}, and {@code onUnavailable = FAIL} throws
 * instead), and a node that refuses the password is named in one WARN.
 */
@ExtendWith(OutputCaptureExtension.class)
@WithRedisNodes(3)
class OutageSkipIT {

    @Test
    void aCallSkippedForAnOutageWarnsOnceCountsAsAnErrorAndFailsWhenAskedTo(RedisNodes nodes, CapturedOutput output) {
        try (ConfigurableApplicationContext app = LockedTestApp.start("outage", new Sections(),
                "redlock.nodes=" + String.join(",", nodes.uris()))) {
            Orders orders = app.getBean(Orders.class);
            MeterRegistry registry = app.getBean(MeterRegistry.class);
            assertThat(orders.report("daily")).isEqualTo("report daily");
            nodes.node(0).kill();
            nodes.node(1).kill();

            for (int i = 0; i < 3; i++) {
                assertThat(orders.report("daily")).as("skipped").isNull();
            }
            assertThat(output.getOut().lines().filter(line -> line.contains("too few Redlock nodes answered")))
                    .singleElement().asString().contains("WARN").contains("'report:daily'");
            assertThat(registry.get("redlock.acquire").tags("kind", "lock", "result", "error").timer().count())
                    .isGreaterThanOrEqualTo(3);
            assertThatThrownBy(() -> orders.reportUnlessDown("daily"))
                    .isInstanceOfSatisfying(LockNotAcquiredException.class, e -> assertThat(e.nodesUnavailable())
                            .isTrue());
        }
    }

    @Test
    @WithRedisNodes(value = 3, args = {"--requirepass", "the-right-password"})
    void aNodeThatRefusesThePasswordIsNamedInOneWarnAtStartup(RedisNodes nodes, CapturedOutput output) {
        String password = "not-the-password";
        String refused = "redis://:" + password + "@" + nodes.node(2).address();
        try (ConfigurableApplicationContext app = LockedTestApp.start("refused", new Sections(),
                "redlock.nodes=" + String.join(",", nodes.node(0).uri(), nodes.node(1).uri(), refused))) {
            Orders orders = app.getBean(Orders.class);
            for (int i = 0; i < 3; i++) {
                assertThat(orders.report("daily")).as("two of three nodes carry the lock").isEqualTo("report daily");
            }
        }
        assertThat(output.getOut().lines().filter(line -> line.contains("refused the connection")))
                .singleElement().asString().contains("WARN").contains(nodes.node(2).address());
        assertThat(output.getOut() + output.getErr()).doesNotContain(password);
    }
}
