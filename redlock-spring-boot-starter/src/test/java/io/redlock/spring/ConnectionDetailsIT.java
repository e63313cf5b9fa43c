package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisURI;
import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.spring.app.LockedTestApp;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@link RedlockConnectionDetails} beans give the nodes, on three real nodes: they replace whatever mode the
 * properties select, they are enough without any node property, and several add up.
 */
@WithRedisNodes(3)
class ConnectionDetailsIT {

    /** With a node timeout a loaded machine keeps to: each test's single acquisition must not fail on a slow reply. */
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RedlockAutoConfiguration.class))
            .withPropertyValues("redlock.node-timeout=" + LockedTestApp.NODE_TIMEOUT);

    @Test
    void aConnectionDetailsBeanReplacesTheNodesOfTheProperties(RedisNodes nodes) {
        runner.withPropertyValues("redlock.single.address=redis://127.0.0.1:1", "redlock.default-ttl=7s")
                .withBean(RedlockConnectionDetails.class, () -> nodes::uris)
                .run(context -> {
                    Redlock redlock = context.getBean(Redlock.class);
                    assertThat(ports(redlock.config().nodes())).containsExactlyElementsOf(ports(nodes));
                    assertThat(redlock.config().defaultTtl()).as("the other properties apply")
                            .isEqualTo(Duration.ofSeconds(7));
                    lockOnEveryNode(redlock, nodes);
                });
    }

    @Test
    void connectionDetailsAloneConfigureTheRedlockAndSeveralAddUp(RedisNodes nodes) {
        runner.withBean("first", RedlockConnectionDetails.class, () -> () -> nodes.uris().subList(0, 1))
                .withBean("others", RedlockConnectionDetails.class, () -> () -> nodes.uris().subList(1, 3))
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(Redlock.class);
                    Redlock redlock = context.getBean(Redlock.class);
                    assertThat(ports(redlock.config().nodes())).containsExactlyInAnyOrderElementsOf(ports(nodes));
                    lockOnEveryNode(redlock, nodes);
                });
    }

    private static void lockOnEveryNode(Redlock redlock, RedisNodes nodes) {
        Lease lease = redlock.tryAcquire("detailed", Duration.ofSeconds(5)).orElseThrow();
        // a majority granted it; the last node's write may still be on its way
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(nodes.servers())
                .allSatisfy(node -> assertThat(node.get("detailed")).isEqualTo(lease.value())));
        lease.release();
    }

    private static List<Integer> ports(List<RedisURI> uris) {
        return uris.stream().map(RedisURI::getPort).toList();
    }

    private static List<Integer> ports(RedisNodes nodes) {
        return nodes.servers().stream().map(server -> server.port()).toList();
    }
}
