package io.redlock.spring.app;

import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
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
        List<String> all = new ArrayList<>(List.of(properties));
        all.add("spring.application.name=" + name);
        all.add("spring.main.banner-mode=off");
        return new SpringApplicationBuilder(TickingApp.class)
                .web(WebApplicationType.NONE)
                .properties(all.toArray(String[]::new))
                .initializers(context -> context.getBeanFactory().registerSingleton("sections", sections))
                .run();
    }
}
