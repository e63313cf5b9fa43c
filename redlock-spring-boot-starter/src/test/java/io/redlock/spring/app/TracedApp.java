package io.redlock.spring.app;

import io.micrometer.tracing.test.simple.SimpleTracer;
import io.redlock.Lease;
import io.redlock.LossReason;
import io.redlock.RedlockObserver;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * {@link LockedTestApp} with a tracer, as an application with tracing has one (Spring Boot's tracing
 * auto-configuration turns every observation into a span of it), and a lease listener of its own.
 */
@SpringBootConfiguration
@Import(LockedTestApp.class)
public class TracedApp {

    /** The reasons of the leases the application's listener heard were lost. */
    public final List<LossReason> lost = new CopyOnWriteArrayList<>();

    @Bean
    SimpleTracer tracer() {
        return new SimpleTracer();
    }

    @Bean
    RedlockObserver lossObserver() {
        return new RedlockObserver() {
            @Override
            public void leaseLost(Lease lease, LossReason reason) {
                lost.add(reason);
            }
        };
    }

    /** Starts the application named {@code name} with these properties. */
    public static ConfigurableApplicationContext start(String name, String... properties) {
        return LockedTestApp.start(TracedApp.class, name, new Sections(), properties);
    }
}
