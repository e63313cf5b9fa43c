package io.redlock.spring;

import io.redlock.Redlock;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link RedlockHealthAutoConfiguration} for Spring Boot 4, whose health API is {@code org.springframework.boot.health}:
 * the {@code redlock} health indicator ({@link RedlockBoot4HealthIndicator}) when that API is on the class path and a
 * Redlock bean exists; {@code management.health.redlock.enabled=false} turns it off.
 */
@AutoConfiguration(after = RedlockAutoConfiguration.class,
        beforeName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass(name = {"org.springframework.boot.health.contributor.HealthIndicator",
        "org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator"})
public class RedlockBoot4HealthAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(Redlock.class)
    @ConditionalOnEnabledHealthIndicator("redlock")
    static class HealthIndicatorConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "redlockHealthIndicator")
        RedlockBoot4HealthIndicator redlockHealthIndicator(Redlock redlock) {
            return new RedlockBoot4HealthIndicator(redlock);
        }
    }
}
