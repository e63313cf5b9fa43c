package io.redlock.spring;

import io.redlock.Redlock;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code redlock} health indicator of Spring Boot 3 ({@link RedlockHealthIndicator}: PING on every node within
 * the node timeout) when its Actuator is on the class path and a Redlock bean exists;
 * {@code management.health.redlock.enabled=false} turns it off. {@link RedlockBoot4HealthAutoConfiguration} is the same
 * for Spring Boot 4.
 */
@AutoConfiguration(after = RedlockAutoConfiguration.class,
        beforeName = "org.springframework.boot.actuate.autoconfigure.health.HealthContributorAutoConfiguration")
@ConditionalOnClass(name = {"org.springframework.boot.actuate.health.HealthIndicator",
        "org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator"})
public class RedlockHealthAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnBean(Redlock.class)
    @ConditionalOnEnabledHealthIndicator("redlock")
    static class HealthIndicatorConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "redlockHealthIndicator")
        RedlockHealthIndicator redlockHealthIndicator(Redlock redlock) {
            return new RedlockHealthIndicator(redlock);
        }
    }
}
