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
 * {@link RedlockMetrics} when Micrometer is on the class path and a {@link MeterRegistry} bean exists. The metrics
 * reach the auto-configured Redlock as one of its observers and lease listeners; the active-leases gauge is bound to
 * the Redlock bean once every singleton exists.
 */
@AutoConfiguration(before = RedlockAutoConfiguration.class, afterName = {
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass({MeterRegistry.class, Redlock.class})
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnProperty(prefix = "redlock", name = "enabled", havingValue = "true", matchIfMissing = true)
public class RedlockMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public RedlockMetrics redlockMetrics(MeterRegistry registry) {
        return new RedlockMetrics(registry);
    }

    @Bean
    public SmartInitializingSingleton redlockActiveLeasesGauge(ObjectProvider<RedlockMetrics> metrics,
            ObjectProvider<Redlock> redlock) {
        return () -> metrics.ifAvailable(m -> redlock.ifUnique(m::bindActiveLeases));
    }
}
