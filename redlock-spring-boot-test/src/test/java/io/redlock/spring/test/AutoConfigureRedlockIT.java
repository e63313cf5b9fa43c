package io.redlock.spring.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

/**
 * A {@code @SpringBootTest} with {@link AutoConfigureRedlock}: the auto-configured Redlock locks on real,
 * password-protected nodes started for the context, the nodes are a bean, and a nested test class shares them.
 */
@SpringBootTest(classes = TestApp.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = "redlock.node-timeout=" + AutoConfigureRedlockIT.NODE_TIMEOUT)
@AutoConfigureRedlock(nodes = 3, args = {"--requirepass", AutoConfigureRedlockIT.PASSWORD})
class AutoConfigureRedlockIT {

    static final String PASSWORD = "spring-test-pw";
    /** A node timeout a loaded machine keeps to: at the 50 ms default a slow reply fails a single try. */
    static final String NODE_TIMEOUT = "500ms";

    @Autowired
    Redlock redlock;

    @Autowired
    RedisNodes nodes;

    @Autowired
    ApplicationContext context;

    @Test
    void theRedlockLocksOnTheNodesStartedForTheContext() {
        assertThat(nodes.size()).isEqualTo(3);
        assertThat(redlock.config().nodes()).extracting(uri -> uri.getPort())
                .containsExactlyElementsOf(nodes.servers().stream().map(server -> server.port()).toList());
        Lease lease = redlock.tryAcquire("spring-test", Duration.ofSeconds(30)).orElseThrow();
        // granted and released by a majority; the last node's write lands a moment later (well within the TTL)
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(nodes.servers())
                .allSatisfy(node -> assertThat(node.get("spring-test")).isEqualTo(lease.value())));
        lease.release();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(nodes.servers())
                .allSatisfy(node -> assertThat(node.get("spring-test")).isNull()));
    }

    @Test
    void theLockSurvivesAKilledNode() {
        nodes.node(0).kill();
        try {
            redlock.tryAcquire("one-down", Duration.ofSeconds(5)).orElseThrow().release();
        } finally {
            nodes.node(0).start();
            // the context's nodes are shared: the next test finds all of them answering again
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> redlock.ping().stream().allMatch(ping -> ping.answered()));
        }
    }

    @Nested
    class Nested1 {

        @Autowired
        ApplicationContext nestedContext;

        @Test
        void aNestedClassSharesTheContextAndItsNodes() {
            assertThat(nestedContext).isSameAs(context);
        }
    }
}
