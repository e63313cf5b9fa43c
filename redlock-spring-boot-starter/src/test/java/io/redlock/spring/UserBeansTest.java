package io.redlock.spring;

import static io.redlock.spring.StarterFixtures.runner;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.RedlockException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Beans the application defines replace the auto-configured ones; the Redlock's life follows the context. */
class UserBeansTest {

    private final ApplicationContextRunner runner = runner();

    @Test
    void userBeansReplaceTheAutoConfiguredOnes() {
        runner.withUserConfiguration(UserBeans.class).run(context -> {
            assertThat(context).hasNotFailed(); // no redlock.* properties needed with a user Redlock
            assertThat(context).getBean(Redlock.class).isSameAs(context.getBean("userRedlock"));
            assertThat(context).getBean(RedlockTemplate.class).isSameAs(context.getBean("userTemplate"));
            assertThat(context.getBean(RedlockTemplate.class).defaultOptions().ttl()).contains(Duration.ofSeconds(7));
            assertThat(context).getBean(RedlockMetrics.class).isSameAs(context.getBean("userMetrics"));
            assertThat(context).getBean("redlockHealthIndicator").isSameAs(context.getBean(UserBeans.class).health);
        });
        // a user Redlock alone: our template wraps it
        runner.withBean("userRedlock", Redlock.class, () -> Redlock.builder().nodes("redis://127.0.0.1:1").build())
                .run(context -> assertThat(context.getBean(RedlockTemplate.class).redlock())
                        .isSameAs(context.getBean("userRedlock")));
    }

    @Test
    void theRedlockIsClosedWhenTheContextCloses() {
        AtomicReference<Redlock> bean = new AtomicReference<>();
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1").run(context -> {
            bean.set(context.getBean(Redlock.class));
            assertThat(bean.get().ping()).as("open while the context runs").hasSize(1);
        });
        assertThatThrownBy(() -> bean.get().tryAcquire("after-shutdown")).isInstanceOf(RedlockException.class)
                .hasMessage("this Redlock is closed");
        assertThatThrownBy(() -> bean.get().ping()).isInstanceOf(RedlockException.class)
                .hasMessage("this Redlock is closed");
    }

    @Test
    void disabledMeansNoBeans() {
        runner.withPropertyValues("redlock.enabled=false").run(context -> assertThat(context).hasNotFailed()
                .doesNotHaveBean(Redlock.class).doesNotHaveBean(RedlockTemplate.class)
                .doesNotHaveBean(BootLine.healthIndicator()));
    }

    @Configuration(proxyBeanMethods = false)
    static class UserBeans {
        final Object health = BootLine.upIndicator();

        @Bean(destroyMethod = "close")
        Redlock userRedlock() {
            return Redlock.builder().nodes("redis://127.0.0.1:1").build();
        }

        @Bean
        RedlockTemplate userTemplate(Redlock redlock) {
            return new RedlockTemplate(redlock, LockOptions.builder().ttl(Duration.ofSeconds(7)).build());
        }

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        RedlockMetrics userMetrics(MeterRegistry registry) {
            return new RedlockMetrics(registry);
        }

        @Bean
        Object redlockHealthIndicator() {
            return health;
        }
    }
}
