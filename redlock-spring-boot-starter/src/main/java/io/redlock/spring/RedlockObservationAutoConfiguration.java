package io.redlock.spring;

import io.micrometer.observation.ObservationRegistry;
import io.redlock.Redlock;
import io.redlock.spring.observation.RedlockAcquisitionObservationConvention;
import io.redlock.spring.observation.RedlockHoldObservationConvention;
import io.redlock.spring.observation.RedlockObservations;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@link RedlockObservations} when Micrometer's Observation API is on the class path and an
 * {@link ObservationRegistry} bean exists (Spring Boot makes one with the actuator): acquisitions and holds of every
 * {@link Redlock} bean show in tracing. A bean of either convention type replaces that convention;
 * {@code redlock.observations.include-resource=true} adds the resource as a high-cardinality key value;
 * {@code management.observations.enable.redlock=false} turns them off.
 */
@AutoConfiguration(before = RedlockAutoConfiguration.class, afterName = {
        // Spring Boot 3
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration",
        // Spring Boot 4
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"})
@ConditionalOnClass({ObservationRegistry.class, Redlock.class})
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnProperty(prefix = "redlock", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(RedlockProperties.class)
public class RedlockObservationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    public RedlockObservations redlockObservations(ObservationRegistry registry, RedlockProperties properties,
            ObjectProvider<RedlockAcquisitionObservationConvention> acquisition,
            ObjectProvider<RedlockHoldObservationConvention> hold) {
        return new RedlockObservations(registry, acquisition.getIfUnique(), hold.getIfUnique(),
                properties.getObservations().isIncludeResource());
    }

    /** Once every singleton exists: the observations observe each {@link Redlock} bean. */
    @Bean
    public SmartInitializingSingleton redlockObservationsBinding(ObjectProvider<RedlockObservations> observations,
            ObjectProvider<Redlock> redlocks) {
        return () -> observations.ifAvailable(o -> StarterObservers.observeEvery(o, redlocks));
    }
}
