package io.redlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A JVM that is terminated (SIGTERM, as on Ctrl-C or a CI timeout) leaves no server process (redis-server, or
 * PostgreSQL and its backends, or MariaDB) and no directory behind.
 */
class ShutdownHookIT {

    @ParameterizedTest
    @ValueSource(strings = {"redis", "postgres", "mariadb"})
    void terminatingTheJvmStopsItsServers(String kind) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ServerHolder.class.getName(), kind).redirectErrorStream(true).start();
        List<ProcessHandle> family = new ArrayList<>();
        try {
            long redisPid = -1;
            Path dir = null;
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith("dir=")) {
                        dir = Path.of(line.substring(4));
                    } else if (line.startsWith("pid=")) {
                        redisPid = Long.parseLong(line.substring(4));
                        break;
                    }
                }
                assertThat(redisPid).as("child printed the server pid").isPositive();
                assertThat(ProcessHandle.of(redisPid)).isPresent();
                ProcessHandle.of(redisPid).ifPresent(p -> {
                    family.add(p);
                    p.descendants().forEach(family::add); // PostgreSQL's backends and workers
                });
                child.destroy(); // SIGTERM to the JVM we started
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            long pid = redisPid;
            await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive())
                    .orElse(true) && family.stream().noneMatch(ProcessHandle::isAlive));
            assertThat(dir).isNotNull();
            assertThat(Files.exists(dir)).as("server directory deleted").isFalse();
        } finally {
            child.destroyForcibly();
        }
    }
}
