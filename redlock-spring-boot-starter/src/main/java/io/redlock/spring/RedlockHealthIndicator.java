package io.redlock.spring;

import io.redlock.Redlock;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * The {@code redlock} health indicator of Spring Boot 3: UP when a majority of the nodes answers {@code PING} within
 * the node timeout ({@code redlock.node-timeout}), DOWN otherwise; the details are those of
 * {@link RedlockHealthReport}. {@link RedlockBoot4HealthIndicator} is the same for Spring Boot 4.
 */
public class RedlockHealthIndicator extends AbstractHealthIndicator {

    private final Redlock redlock;

    public RedlockHealthIndicator(Redlock redlock) {
        super("Redlock health check failed");
        this.redlock = redlock;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        RedlockHealthReport report = RedlockHealthReport.of(redlock);
        (report.up() ? builder.up() : builder.down()).withDetails(report.details());
    }
}
