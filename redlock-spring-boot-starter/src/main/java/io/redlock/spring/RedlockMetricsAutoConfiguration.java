package io.redlock.spring;

import io.micrometer.core.instrument.MeterRegistry;
import io.redlock.Redlock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * {@link RedlockMetrics} when Micrometer is on the class path and a {@link MeterRegistry} bean exists. Once every
 * singleton exists the metrics observe every {@link Redlock} bean — the auto-configured one and an application's
 * own alike — and the active-leases gauge is bound to the Redlock bean.
 */
@AutoConfiguration(before = RedlockAutoConfiguration.class, afterName = {
        // Spring Boot 3
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration",
        // Spring Boot 4
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass({MeterRegistry.class, Redlock.class})
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnProperty(prefix = "redlock", name = "enabled", havingValue = "true", matchIfMissing = true)
public class RedlockMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public RedlockMetrics redlockMetrics(MeterRegistry registry) {
        return new RedlockMetrics(registry);
    }

    /**
     * Once every singleton exists: the metrics observe each {@link Redlock} bean, the auto-configured one or the
     * application's own, and the active-leases gauge is bound to the Redlock if there is one.
     */
    @Bean
    public SmartInitializingSingleton redlockMetricsBinding(ObjectProvider<RedlockMetrics> metrics,
            ObjectProvider<Redlock> redlocks) {
        return () -> metrics.ifAvailable(m -> {
            StarterObservers.observeEvery(m, redlocks);
            redlocks.ifUnique(m::bindActiveLeases);
        });
    }
}
