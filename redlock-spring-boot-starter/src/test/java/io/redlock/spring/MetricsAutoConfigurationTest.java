package io.redlock.spring;

import static io.redlock.spring.StarterFixtures.runner;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redlock.Lease;
import io.redlock.LeaseListener;
import io.redlock.LossReason;
import io.redlock.NodeFailure;
import io.redlock.Redlock;
import io.redlock.RedlockConfig;
import io.redlock.RedlockObserver;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Metrics only with a MeterRegistry, composed with the application's observers and lease listeners. */
class MetricsAutoConfigurationTest {

    private final ApplicationContextRunner runner = runner();

    @Test
    void nodeTagsAreHostAndPortAndASentinelMasterIsTaggedByName() {
        assertThat(NodeNames.of("10.0.0.1:6379")).isEqualTo("10.0.0.1:6379");
        assertThat(NodeNames.of("sentinel:mymaster@10.0.0.1:26379,10.0.0.2:26379")).isEqualTo("mymaster");
        assertThat(NodeNames.of("unix:/tmp/redis.sock")).isEqualTo("unix:/tmp/redis.sock");
        runner.withPropertyValues("redlock.sentinel.master-name=orders-master",
                "redlock.sentinel.addresses=127.0.0.1:8,127.0.0.1:9")
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
                    RedlockObserver observer = context.getBean(Redlock.class).config().observer().orElseThrow();
                    observer.nodeFailed(new NodeFailure("sentinel:orders-master@127.0.0.1:8,127.0.0.1:9",
                            NodeFailure.Kind.TIMEOUT, "no reply"));
                    assertThat(context.getBean(MeterRegistry.class).get("redlock.node.errors")
                            .tags("node", "orders-master", "kind", "timeout").counter().count()).isEqualTo(1);
                });
    }

    @Test
    void observersAndListenersAreComposedWithTheMetrics() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1").withUserConfiguration(Observers.class)
                .run(context -> {
                    RedlockConfig config = context.getBean(Redlock.class).config();
                    assertThat(config.observer()).get().isInstanceOf(CompositeRedlockObserver.class);
                    assertThat(((CompositeRedlockObserver) config.observer().get()).observers())
                            .containsExactlyInAnyOrder(context.getBean(RedlockMetrics.class),
                                    context.getBean("userObserver", RedlockObserver.class));
                    assertThat(((CompositeLeaseListener) config.leaseListener().get()).listeners())
                            .containsExactlyInAnyOrder(context.getBean(RedlockMetrics.class),
                                    context.getBean("userListener", LeaseListener.class));
                    // one that throws does not keep the other from being told
                    config.observer().get().acquisition("r", RedlockObserver.AcquireResult.BUSY, Duration.ofMillis(3));
                    assertThat(context.getBean(MeterRegistry.class).get("redlock.acquire").tag("result", "busy")
                            .timer().count()).isEqualTo(1);
                });
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withBean("only", RedlockObserver.class, () -> new RedlockObserver() { })
                .run(context -> assertThat(context.getBean(Redlock.class).config().observer())
                        .containsSame(context.getBean("only", RedlockObserver.class)));
    }

    @Test
    void metricsOnlyWithAMeterRegistry() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1").run(context -> {
            assertThat(context).doesNotHaveBean(RedlockMetrics.class);
            assertThat(context.getBean(Redlock.class).config().observer()).isEmpty();
            assertThat(context.getBean(Redlock.class).config().leaseListener()).isEmpty();
        });
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
                    assertThat(context).hasSingleBean(RedlockMetrics.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(context.getBean(Redlock.class).config().observer())
                            .containsSame(context.getBean(RedlockMetrics.class));
                    assertThat(registry.get("redlock.leases.active").gauge().value()).isZero();
                    assertThat(registry.get("redlock.acquire").tag("result", "acquired").timer().count()).isZero();
                    assertThat(registry.get("redlock.extend").tag("result", "failed").timer().count()).isZero();
                    context.getBean(RedlockMetrics.class).onLost(null, LossReason.MAX_HOLD);
                    assertThat(registry.get("redlock.lease.lost").tag("reason", "max_hold").counter().count())
                            .isEqualTo(1);
                });
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .run(context -> assertThat(context).doesNotHaveBean(RedlockMetrics.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class Observers {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        RedlockObserver userObserver() {
            return new RedlockObserver() {
                @Override
                public void acquisition(String resource, AcquireResult result, Duration took) {
                    throw new IllegalStateException("a broken observer");
                }
            };
        }

        @Bean
        LeaseListener userListener() {
            return (Lease lease, LossReason reason) -> { };
        }
    }
}
