package io.redlock.spring;

import static io.redlock.spring.StarterFixtures.PASSWORD;
import static io.redlock.spring.StarterFixtures.allMessages;
import static io.redlock.spring.StarterFixtures.bind;
import static io.redlock.spring.StarterFixtures.failure;
import static io.redlock.spring.StarterFixtures.runner;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Secrets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** No password of the properties reaches a failure message or the log. */
@ExtendWith(OutputCaptureExtension.class)
class StarterSecretsTest {

    private final ApplicationContextRunner runner = runner();

    @Test
    void passwordsNeverAppearInFailures(CapturedOutput output) {
        // the same node twice, a bad port, a bad single address: core and starter messages alike
        List<String[]> cases = List.of(
                new String[] {"redlock.nodes=redis://:" + PASSWORD + "@127.0.0.1:1,redis://:" + PASSWORD
                        + "@127.0.0.1:1"},
                new String[] {"redlock.nodes=redis://user:" + PASSWORD + "@127.0.0.1:notaport"},
                new String[] {"redlock.single.address=redis://user:" + PASSWORD + "@127.0.0.1:abc",
                        "redlock.single.password=" + PASSWORD});
        for (String[] properties : cases) {
            runner.withPropertyValues(properties).run(context -> {
                RedlockPropertiesException failure = failure(context);
                assertThat(failure.properties()).hasSize(1);
                assertThat(allMessages(context.getStartupFailure())).doesNotContain(PASSWORD);
            });
        }
        runner.withPropertyValues("redlock.nodes=redis://:" + PASSWORD + "@127.0.0.1:1,redis://:" + PASSWORD
                + "@127.0.0.1:1").run(context -> assertThat(failure(context).getMessage())
                        .contains("redlock.nodes: node 127.0.0.1:1 is listed twice"));
        runner.withPropertyValues("redlock.nodes=redis://user:" + PASSWORD + "@127.0.0.1:notaport").run(context ->
                assertThat(failure(context).getMessage()).contains("redis://***@127.0.0.1:notaport"));
        assertThat(output).doesNotContain(PASSWORD);
    }

    @Test
    void maskingReplacesUserInfo() {
        // the starter's redaction is core's Secrets, fed with every password of the properties
        RedlockProperties properties = bind(Map.of("redlock.nodes", "redis://user:pass@h:1,rediss://:pw-2@h2:2/0",
                "redlock.single.password", "s3cret", "redlock.sentinel.password", "sentinel-" + PASSWORD,
                "redlock.sentinel.sentinel-password", "other-" + PASSWORD));
        Secrets secrets = ConfigFailures.secrets(properties);
        assertThat(secrets.scrub("redis://user:pass@h:1,rediss://:pw@h2:2/0 and redis://h3:3"))
                .isEqualTo("redis://***@h:1,rediss://***@h2:2/0 and redis://h3:3");
        assertThat(secrets.scrub("oops s3cret")).isEqualTo("oops ***");
        assertThat(secrets.scrub("a pw-2, sentinel-" + PASSWORD + " and other-" + PASSWORD))
                .isEqualTo("a ***, *** and ***");
    }
}
