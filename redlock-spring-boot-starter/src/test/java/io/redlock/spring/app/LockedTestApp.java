package io.redlock.spring.app;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/** A small Spring Boot application with {@code @Locked} services, as a user would write it. */
@SpringBootConfiguration
@EnableAutoConfiguration
public class LockedTestApp {

    @Bean
    MeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }

    @Bean
    Inner inner() {
        return new Inner();
    }

    @Bean
    Reports reports() {
        return new Reports();
    }

    @Bean
    Ledger ledger() {
        return new Ledger();
    }

    @Bean
    Orders orders(Inner inner, MeterRegistry registry, Sections sections) {
        return new Orders(inner, registry, sections);
    }

    /** Starts the application named {@code name} with these properties; {@code sections} is shared across apps. */
    public static ConfigurableApplicationContext start(String name, Sections sections, String... properties) {
        return start(LockedTestApp.class, name, sections, properties);
    }

    /**
     * Starts {@code application} (no web server, no banner) named {@code name} with these properties;
     * {@code sections}, shared across apps, is its {@code sections} bean.
     */
    static ConfigurableApplicationContext start(Class<?> application, String name, Sections sections,
            String... properties) {
        List<String> all = new ArrayList<>(List.of(properties));
        all.add("spring.application.name=" + name);
        all.add("spring.main.banner-mode=off");
        return new SpringApplicationBuilder(application)
                .web(WebApplicationType.NONE)
                .properties(all.toArray(String[]::new))
                .initializers(context -> context.getBeanFactory().registerSingleton("sections", sections))
                .run();
    }
}
