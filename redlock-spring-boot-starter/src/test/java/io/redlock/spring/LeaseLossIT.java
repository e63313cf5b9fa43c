package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.redlock.LeaseLostException;
import io.redlock.LossReason;
import io.redlock.spring.app.LockedTestApp;
import io.redlock.spring.app.Orders;
import io.redlock.spring.app.Sections;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A {@code @Locked} method whose lease is lost while it runs, on three real nodes: the method is interrupted, the
 * call throws {@link LeaseLostException} with the reason, and {@code redlock.lease.lost} counts it by that reason.
 */
class LeaseLossIT {

    @Test
    @WithRedisNodes(3)
    void deletedKeysMakeTheNextExtensionRefused(RedisNodes nodes) {
        try (ConfigurableApplicationContext app = start(nodes)) {
            AtomicBoolean interrupted = new AtomicBoolean();
            Runnable deleteTheLock = () -> nodes.forEach(node -> node.redis(r -> r.del("refused")));
            assertThatThrownBy(() -> app.getBean(Orders.class).loseWhile("refused", deleteTheLock, interrupted))
                    .isInstanceOfSatisfying(LeaseLostException.class,
                            lost -> assertThat(lost.reason()).isEqualTo(LossReason.EXTENSION_REFUSED));
            assertThat(interrupted).as("the method was interrupted once the lease was lost").isTrue();
            assertThat(lost(app, "extension_refused")).isEqualTo(1);
            assertThat(lost(app, "expired")).isZero();
            assertThat(extensions(app, "failed")).as("the refused extension").isPositive();
        }
    }

    @Test
    @WithRedisNodes(3)
    void stalledNodesLetTheValidityRunOutAsExpired(RedisNodes nodes) {
        try (ConfigurableApplicationContext app = start(nodes)) {
            AtomicBoolean interrupted = new AtomicBoolean();
            Runnable stallTwoNodes = () -> {
                nodes.node(0).pause();
                nodes.node(1).pause();
            };
            try {
                assertThatThrownBy(() -> app.getBean(Orders.class).loseWhile("stalled", stallTwoNodes, interrupted))
                        .isInstanceOfSatisfying(LeaseLostException.class,
                                lost -> assertThat(lost.reason()).isEqualTo(LossReason.EXPIRED));
            } finally {
                for (RedisServer node : nodes) {
                    if (node.isPaused()) {
                        node.resume();
                    }
                }
            }
            assertThat(interrupted).isTrue();
            assertThat(lost(app, "expired")).isEqualTo(1);
            assertThat(lost(app, "extension_refused")).isZero();
        }
    }

    private static ConfigurableApplicationContext start(RedisNodes nodes) {
        return LockedTestApp.start("loss", new Sections(), "redlock.nodes=" + String.join(",", nodes.uris()));
    }

    private static double lost(ConfigurableApplicationContext app, String reason) {
        return app.getBean(MeterRegistry.class).get("redlock.lease.lost").tag("reason", reason).counter().count();
    }

    private static double extensions(ConfigurableApplicationContext app, String result) {
        return app.getBean(MeterRegistry.class).get("redlock.extend").tag("result", result).timer().count();
    }
}
