package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A real {@code SpringApplication} that is misconfigured: Spring Boot's start-up report, through the failure analyzer. */
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
    void noModeIsReportedByPropertyName(CapturedOutput output) {
        assertThatThrownBy(() -> new SpringApplicationBuilder(App.class).web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off").run())
                .hasStackTraceContaining("no Redis node is configured");
        assertThat(output).contains("APPLICATION FAILED TO START").contains("none of redlock.nodes,"
                + " redlock.single.address or redlock.sentinel.master-name is set");
    }
}
