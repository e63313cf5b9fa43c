package io.redlock.spring;

import io.redlock.Redlock;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The {@code redlock} health indicator of Spring Boot 4 (its health API moved to
 * {@code org.springframework.boot.health}): the same report as {@link RedlockHealthIndicator}, Spring Boot 3's.
 */
public class RedlockBoot4HealthIndicator extends AbstractHealthIndicator {

    private final Redlock redlock;

    public RedlockBoot4HealthIndicator(Redlock redlock) {
        super("Redlock health check failed");
        this.redlock = redlock;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        RedlockHealthReport report = RedlockHealthReport.of(redlock);
        (report.up() ? builder.up() : builder.down()).withDetails(report.details());
    }
}
