package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * What the auto-configuration tests share: a context runner with the four auto-configurations, and the checks of a
 * failed start-up. The nodes are loopback ports nobody listens on: nothing here needs a Redis to answer (a Redlock
 * connects in the background); the behaviour against real servers is in {@code LockedIT} and {@code HealthIT}.
 */
final class StarterFixtures {

    static final String PASSWORD = "hunter2-do-not-print";
    static final String FIVE_NODES = "redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3,"
            + "redis://:" + PASSWORD + "@127.0.0.1:4,redis://127.0.0.1:5";

    private StarterFixtures() {
    }

    /** A runner with the starter's auto-configurations (Redlock, @Locked, metrics, health). */
    static ApplicationContextRunner runner() {
        return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(RedlockAutoConfiguration.class,
                RedlockLockedAutoConfiguration.class, RedlockMetricsAutoConfiguration.class,
                BootLine.healthAutoConfiguration(), RedlockShedLockAutoConfiguration.class));
    }

    static RedlockPropertiesException failure(AssertableApplicationContext context) {
        assertThat(context).hasFailed();
        RedlockPropertiesException failure = findCause(context.getStartupFailure(), RedlockPropertiesException.class);
        assertThat(failure).as("a RedlockPropertiesException in %s", context.getStartupFailure()).isNotNull();
        assertThat(failure.getMessage()).doesNotContain(PASSWORD);
        return failure;
    }

    static void assertFailure(AssertableApplicationContext context, String property, String message) {
        RedlockPropertiesException failure = failure(context);
        assertThat(failure.properties()).containsExactly(property);
        assertThat(failure.getMessage()).contains(message);
    }

    static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    static String allMessages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.add(t.toString());
        }
        return messages.stream().collect(Collectors.joining("\n"));
    }

    static RedlockProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bind("redlock", RedlockProperties.class)
                .get();
    }

    static String password(RedisURI uri) {
        RedisCredentials credentials = uri.getCredentialsProvider().resolveCredentials().block(Duration.ofSeconds(1));
        return credentials == null || credentials.getPassword() == null ? null
                : new String(credentials.getPassword());
    }
}
