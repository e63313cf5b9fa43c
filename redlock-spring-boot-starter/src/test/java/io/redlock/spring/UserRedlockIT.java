package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** A {@code Redlock} bean of the application's own gets what the auto-configured one gets: meters and health. */
@WithRedisNodes(3)
class UserRedlockIT {

    @Test
    void anApplicationsOwnRedlockIsMeteredAndHasAHealthIndicator(RedisNodes nodes) {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedlockAutoConfiguration.class,
                        RedlockMetricsAutoConfiguration.class, BootLine.healthAutoConfiguration()))
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
                .withBean("ownRedlock", Redlock.class, () -> Redlock.builder().nodes(nodes.uris())
                        .nodeTimeout(Duration.ofMillis(250)).build()) // a slow reply must not fail the acquisition
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    Redlock redlock = context.getBean(Redlock.class);
                    redlock.tryAcquire("own", Duration.ofSeconds(5)).orElseThrow().release();
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("redlock.acquire").tags("kind", "lock", "result", "acquired").timer()
                            .count()).isEqualTo(1);
                    assertThat(registry.get("redlock.leases.active").gauge().value()).isZero();
                    assertThat(BootLine.health(context).up()).isTrue();
                });
    }
}
