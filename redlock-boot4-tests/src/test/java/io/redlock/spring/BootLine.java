package io.redlock.spring;

import java.util.Map;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.ApplicationContext;

/**
 * What the starter's tests need of the Spring Boot line they run on, here Spring Boot 4: its health API, which moved
 * to {@code org.springframework.boot.health}. The starter's own test sources have the same class for Spring Boot 3.
 */
final class BootLine {

    /** What the {@code redlock} health indicator reported: its status code, details and text. */
    record Checked(String status, Map<String, Object> details, String text) {

        boolean up() {
            return "UP".equals(status);
        }
    }

    private BootLine() {
    }

    /** Asks the {@code redlockHealthIndicator} bean of {@code context} now. */
    static Checked health(ApplicationContext context) {
        Health health = context.getBean("redlockHealthIndicator", HealthIndicator.class).health();
        return new Checked(health.getStatus().getCode(), health.getDetails(), health.toString());
    }

    /** The auto-configuration of the health indicator on this line. */
    static Class<?> healthAutoConfiguration() {
        return RedlockBoot4HealthAutoConfiguration.class;
    }

    /** The class of the starter's health indicator on this line. */
    static Class<?> healthIndicator() {
        return RedlockBoot4HealthIndicator.class;
    }

    /** The line's health API, to hide from a class loader. */
    static Class<?> healthApi() {
        return HealthIndicator.class;
    }

    /** A health indicator of the application's own, always up. */
    static Object upIndicator() {
        HealthIndicator indicator = () -> Health.up().build();
        return indicator;
    }
}
