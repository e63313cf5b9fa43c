package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.Redlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A real {@code SpringApplication}: misconfigured, Spring Boot's start-up report through the failure analyzer; not
 * configured at all, it starts without a Redlock.
 */
@ExtendWith(OutputCaptureExtension.class)
class StartupFailureReportTest {

    private static final String PASSWORD = "report-pw-never-shown";

    @SpringBootConfiguration
    @ImportAutoConfiguration(RedlockAutoConfiguration.class)
    static class App {
    }

    @Test
    void twoModesAreReportedByPropertyNameWithoutPasswords(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off", "redlock.nodes=redis://:" + PASSWORD + "@127.0.0.1:1",
                        "redlock.single.address=redis://:" + PASSWORD + "@127.0.0.1:2")
                .run()).hasStackTraceContaining("redlock.nodes and redlock.single.address are both set");
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains("Invalid Redlock configuration: redlock.nodes and redlock.single.address are both set")
                .contains("Set exactly one of: redlock.nodes")
                .doesNotContain(PASSWORD);
    }

    @Test
    void withoutNodesTheApplicationStartsWithoutARedlockAndOneInfoLineSaysWhatToSet(CapturedOutput output) {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off").run()) {
            assertThat(app.getBeanNamesForType(Redlock.class)).isEmpty();
            assertThat(app.getBeanNamesForType(RedlockTemplate.class)).isEmpty();
        }
        assertThat(output).doesNotContain("APPLICATION FAILED TO START");
        assertThat(output.getOut().lines().filter(line -> line.contains(RedlockAutoConfiguration.NOT_CONFIGURED)))
                .singleElement().asString().contains("INFO");
    }

    @Test
    void anApplicationsOwnRedlockGetsTheTemplateWithoutAnyNodeProperty() {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(App.class, OwnRedlock.class)
                .web(WebApplicationType.NONE).properties("spring.main.banner-mode=off").run()) {
            assertThat(app.getBean(RedlockTemplate.class)).isNotNull();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnRedlock {

        @Bean(destroyMethod = "close")
        Redlock redlock() {
            return Redlock.builder().nodes("redis://127.0.0.1:1").build();
        }
    }
}
