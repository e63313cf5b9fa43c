package io.redlock.spring;

import static io.redlock.spring.StarterFixtures.FIVE_NODES;
import static io.redlock.spring.StarterFixtures.PASSWORD;
import static io.redlock.spring.StarterFixtures.runner;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The health indicator: only with the actuator, down with per-node errors when no node answers. */
class HealthAutoConfigurationTest {

    private final ApplicationContextRunner runner = runner();

    @Test
    void theHealthIsDownWithPerNodeErrorsWhenNoNodeAnswers() {
        runner.withPropertyValues("redlock.nodes=" + FIVE_NODES).run(context -> {
            BootLine.Checked health = BootLine.health(context);
            assertThat(health.status()).isEqualTo("DOWN");
            assertThat(health.details()).containsEntry("quorum", 3).containsEntry("answered", 0)
                    .containsEntry("nodeTimeout", "50ms");
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> nodes = (Map<String, Map<String, Object>>) health.details().get("nodes");
            assertThat(nodes).hasSize(5).containsKey("127.0.0.1:4").allSatisfy((node, details) ->
                    assertThat(details).containsEntry("answered", false).containsKey("error"));
            assertThat(health.text()).doesNotContain(PASSWORD);
        });
    }

    @Test
    void healthIndicatorOnlyWithActuator() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .run(context -> assertThat(context).hasSingleBean(BootLine.healthIndicator()));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withClassLoader(new FilteredClassLoader(BootLine.healthApi()))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(BootLine.healthIndicator()));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "management.health.redlock.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(BootLine.healthIndicator()));
    }
}
