package io.redlock.spring.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.Redlock;
import io.redlock.RedlockLock;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The nodes of {@link AutoConfigureRedlock}: one customizer per distinct setting (contexts are cached by it), nodes
 * that outlive every other bean of the context and stop when it closes, and a bad count refused.
 */
class RedlockNodesContextCustomizerTest {

    @AutoConfigureRedlock(nodes = 5)
    static class Five {
    }

    @AutoConfigureRedlock(nodes = 5)
    static class AlsoFive {
    }

    @AutoConfigureRedlock
    static class Three {
    }

    static class None {
    }

    private final RedlockNodesContextCustomizerFactory factory = new RedlockNodesContextCustomizerFactory();

    @Test
    void testClassesWithTheSameSettingsShareACustomizerAndSoACachedContext() {
        assertThat(factory.createContextCustomizer(Five.class, List.of()))
                .isEqualTo(factory.createContextCustomizer(AlsoFive.class, List.of()))
                .hasSameHashCodeAs(factory.createContextCustomizer(AlsoFive.class, List.of()))
                .isNotEqualTo(factory.createContextCustomizer(Three.class, List.of()));
        assertThat(factory.createContextCustomizer(None.class, List.of())).isNull();
    }

    @Test
    void theNodesStopWhenTheContextClosesAfterTheRedlockLetGo() {
        RedlockNodesContextCustomizer customizer = new RedlockNodesContextCustomizer(2, List.of());
        AtomicBoolean releasedWhileUp = new AtomicBoolean();
        SpringApplication application = new SpringApplication(TestApp.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.addInitializers(context -> customizer.customizeContext(context, null), context -> {
            // after the nodes, before the Redlock: destroyed after the Redlock, before the nodes
            RedisNodes started = context.getBeanFactory().getBean(RedisNodes.class);
            ((DefaultListableBeanFactory) context.getBeanFactory()).registerDisposableBean("watcher",
                    () -> releasedWhileUp.set(started.servers().stream()
                            .allMatch(node -> node.isRunning() && node.get("held-at-close") == null)));
        });
        RedisNodes nodes;
        try (ConfigurableApplicationContext context = application.run("--spring.main.banner-mode=off")) {
            nodes = context.getBean(RedisNodes.class);
            RedlockLock lock = context.getBean(Redlock.class).lock("held-at-close");
            lock.lock(); // the Redlock releases it when the context closes, while the nodes still run
            assertThat(nodes.servers()).allSatisfy(node -> assertThat(node.get("held-at-close")).isNotNull());
        }
        assertThat(releasedWhileUp).as("the Redlock released its lock while the nodes ran").isTrue();
        assertThat(nodes.servers()).noneMatch(RedisServer::isRunning);
    }

    @Test
    void lessThanOneNodeIsRefused() {
        assertThatThrownBy(() -> new RedlockNodesContextCustomizer(0, List.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nodes = 0");
    }
}
