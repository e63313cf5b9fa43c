package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.spring.app.LockedTestApp;
import io.redlock.spring.app.Reports;
import io.redlock.spring.app.Sections;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code @Locked} on methods returning a Mono, a Flux or a CompletableFuture: the lock is held (kept alive past its
 * TTL) until the result terminates, then released; cancelling a Flux or the returned future releases it; SKIP gives
 * an empty Mono.
 */
@WithRedisNodes(3)
class ReactiveLockedIT {

    private static final Duration BLOCK = Duration.ofSeconds(20);

    @Test
    void theLockLastsUntilTheResultTerminates(RedisNodes nodes) throws Exception {
        try (ConfigurableApplicationContext app = LockedTestApp.start("reactive", new Sections(),
                "redlock.nodes=" + String.join(",", nodes.uris()))) {
            Reports reports = app.getBean(Reports.class);

            CompletableFuture<Long> token = reports.monoToken().toFuture();
            await().atMost(BLOCK).until(() -> held(nodes, "mono"));
            assertThat(reports.monoIfFree().blockOptional(BLOCK)).as("busy: skipped").isEmpty();
            assertThat(token.get(20, TimeUnit.SECONDS)).isPositive();
            await().atMost(BLOCK).until(() -> !held(nodes, "mono"));
            assertThat(reports.monoIfFree().block(BLOCK)).isEqualTo("ran");

            assertThat(reports.ticks().take(3).collectList().block(BLOCK)).hasSize(3);
            await().atMost(BLOCK).until(() -> !held(nodes, "flux"));

            CompletableFuture<String> stage = reports.stage();
            await().atMost(BLOCK).until(() -> held(nodes, "stage"));
            assertThat(stage.get(20, TimeUnit.SECONDS)).isEqualTo("done");
            await().atMost(BLOCK).until(() -> !held(nodes, "stage"));

            CompletableFuture<String> endless = reports.endless();
            await().atMost(BLOCK).until(() -> held(nodes, "endless"));
            endless.cancel(true);
            await().atMost(BLOCK).until(() -> !held(nodes, "endless"));
        }
    }

    private static boolean held(RedisNodes nodes, String resource) {
        return nodes.servers().stream().filter(node -> node.get(resource) != null).count() >= 2;
    }
}
