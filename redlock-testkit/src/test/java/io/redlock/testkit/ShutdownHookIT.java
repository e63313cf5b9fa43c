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
import org.junit.jupiter.api.Test;

/** A JVM that is terminated (SIGTERM, as on Ctrl-C or a CI timeout) leaves no redis-server and no directory behind. */
class ShutdownHookIT {

    @Test
    void terminatingTheJvmKillsItsServers() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                ServerHolder.class.getName()).redirectErrorStream(true).start();
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
                child.destroy(); // SIGTERM to the JVM we started
                assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            long pid = redisPid;
            await().atMost(Duration.ofSeconds(10)).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive())
                    .orElse(true));
            assertThat(dir).isNotNull();
            assertThat(Files.exists(dir)).as("server directory deleted").isFalse();
        } finally {
            child.destroyForcibly();
        }
    }
}
