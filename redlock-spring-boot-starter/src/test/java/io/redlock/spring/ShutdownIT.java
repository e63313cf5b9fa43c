package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redlock.Redlock;
import io.redlock.RedlockException;
import io.redlock.spring.app.LockedTestApp;
import io.redlock.spring.app.Order;
import io.redlock.spring.app.Orders;
import io.redlock.spring.app.Sections;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/** Closing the application context closes the auto-configured Redlock: its connections to the nodes go away. */
class ShutdownIT {

    @Test
    @WithRedisNodes(3)
    void closingTheContextClosesTheRedlockAndItsConnections(RedisNodes nodes) throws Exception {
        ConfigurableApplicationContext app = LockedTestApp.start("shutdown", new Sections(),
                "redlock.nodes=" + String.join(",", nodes.uris()));
        Redlock redlock = app.getBean(Redlock.class);
        assertThat(app.getBean(Orders.class).ship(new Order("closing"), "shutdown")).isPositive();
        for (RedisServer node : nodes) {
            assertThat(clients(node)).as("the Redlock's connection and ours").isGreaterThanOrEqualTo(2);
        }

        app.close();

        assertThatThrownBy(() -> redlock.tryAcquire("after")).isInstanceOf(RedlockException.class)
                .hasMessage("this Redlock is closed");
        for (RedisServer node : nodes) {
            await().atMost(Duration.ofSeconds(30)).until(() -> clients(node) == 1); // only the one asking
        }
    }

    private static long clients(RedisServer node) {
        return node.<String>redis(r -> r.clientList()).lines().filter(line -> !line.isBlank()).count();
    }
}
