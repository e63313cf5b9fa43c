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

    /**
     * The per-node timeout of the applications started here unless their properties name one: at the starter's
     * default, 50 ms, a slow reply on a loaded machine passes for a silent node (a skipped call counted as an error,
     * a lost extension). Well under the shortest TTL of these apps' methods (600 ms). No test here is about the
     * default.
     */
    public static final String NODE_TIMEOUT = "250ms";

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
        if (all.stream().noneMatch(property -> property.startsWith("redlock.node-timeout="))) {
            all.add("redlock.node-timeout=" + NODE_TIMEOUT);
        }
        all.add("spring.application.name=" + name);
        all.add("spring.main.banner-mode=off");
        return new SpringApplicationBuilder(application)
                .web(WebApplicationType.NONE)
                .properties(all.toArray(String[]::new))
                .initializers(context -> context.getBeanFactory().registerSingleton("sections", sections))
                .run();
    }
}
