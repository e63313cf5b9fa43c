package io.redlock.spring;

import static io.redlock.spring.StarterFixtures.runner;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redlock.LockTarget;
import io.redlock.LossReason;
import io.redlock.Redlock;
import io.redlock.RedlockObserver;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/** Metrics only with a MeterRegistry, next to the application's observers; acquisitions by kind of lock. */
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
                    assertThat(context.getBean(Redlock.class).tryAcquire("r")).as("no sentinel answers").isEmpty();
                    assertThat(context.getBean(MeterRegistry.class).get("redlock.node.errors")
                            .tags("node", "orders-master", "kind", "unavailable").counter().count()).isEqualTo(1);
                });
    }

    @Test
    void everyObserverOfTheApplicationHearsTheRedlockAndTheMetricsToo() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1").withUserConfiguration(Observers.class)
                .run(context -> {
                    // the first observer throws: the second and the metrics still hear the acquisition
                    assertThat(context.getBean(Redlock.class).tryAcquire("r")).isEmpty();
                    assertThat(context.getBean(Observers.class).heard).containsExactly("r ERROR");
                    assertThat(context.getBean(MeterRegistry.class).get("redlock.acquire")
                            .tags("kind", "lock", "result", "error").timer().count()).isEqualTo(1);
                });
    }

    @Test
    void acquisitionsAreTimedByKindOfLockAndResult() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("redlock.acquire").timers()).as("every kind and result, from the start")
                            .hasSize(5 * 3).extracting(timer -> timer.getId().getTag("kind"))
                            .containsOnly("lock", "several", "read", "write", "permit");
                    Redlock redlock = context.getBean(Redlock.class);
                    Duration ttl = Duration.ofSeconds(5);
                    // nobody answers: each call is an error, timed under its kind
                    assertThat(redlock.tryAcquire("r", ttl)).isEmpty();
                    assertThat(redlock.tryAcquireAll(List.of("a", "b"), ttl)).isEmpty();
                    assertThat(redlock.readWriteLock("rw").tryAcquireRead(ttl)).isEmpty();
                    assertThat(redlock.readWriteLock("rw").tryAcquireWrite(ttl)).isEmpty();
                    assertThat(redlock.semaphore("s", 2).tryAcquire(ttl)).isEmpty();
                    for (LockTarget.Kind kind : LockTarget.Kind.values()) {
                        assertThat(registry.get("redlock.acquire").tags("kind", kind.tag(), "result", "error").timer()
                                .count()).as(kind.tag()).isEqualTo(1);
                        assertThat(registry.get("redlock.acquire").tags("kind", kind.tag(), "result", "acquired")
                                .timer().count()).as(kind.tag()).isZero();
                    }
                });
    }

    @Test
    void metricsOnlyWithAMeterRegistry() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1").run(context -> {
            assertThat(context).doesNotHaveBean(RedlockMetrics.class);
        });
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
                    assertThat(context).hasSingleBean(RedlockMetrics.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("redlock.leases.active").gauge().value()).isZero();
                    assertThat(registry.get("redlock.acquire").tags("kind", "lock", "result", "acquired").timer()
                            .count()).isZero();
                    assertThat(registry.get("redlock.extend").tag("result", "failed").timer().count()).isZero();
                    context.getBean(RedlockMetrics.class).leaseLost(null, LossReason.MAX_HOLD);
                    assertThat(registry.get("redlock.lease.lost").tag("reason", "max_hold").counter().count())
                            .isEqualTo(1);
                });
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .run(context -> assertThat(context).doesNotHaveBean(RedlockMetrics.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class Observers {

        final List<String> heard = new CopyOnWriteArrayList<>();

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        @Order(1)
        RedlockObserver brokenObserver() {
            return new RedlockObserver() {
                @Override
                public void acquisition(String resource, AcquireResult result, Duration took) {
                    throw new IllegalStateException("a broken observer");
                }
            };
        }

        @Bean
        @Order(2)
        RedlockObserver listeningObserver() {
            return new RedlockObserver() {
                @Override
                public void acquisition(String resource, AcquireResult result, Duration took) {
                    heard.add(resource + " " + result);
                }
            };
        }
    }
}
