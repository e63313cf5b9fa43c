package io.redlock.spring.app;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.EnableScheduling;

/** A Spring Boot application with one {@code @Scheduled}, {@code @Locked} job ({@link TickJob}). */
@SpringBootConfiguration
@EnableAutoConfiguration
@EnableScheduling
public class TickingApp {

    @Bean
    TickJob tickJob(Environment environment, Sections sections) {
        return new TickJob(environment.getRequiredProperty("spring.application.name"), sections);
    }

    /** Starts the application named {@code name} with these properties; {@code sections} is shared across apps. */
    public static ConfigurableApplicationContext start(String name, Sections sections, String... properties) {
        return LockedTestApp.start(TickingApp.class, name, sections, properties);
    }
}
