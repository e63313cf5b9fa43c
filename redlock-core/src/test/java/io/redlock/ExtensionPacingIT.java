package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The watchdog never extends in a loop, however late the extension threshold is set. */
@WithRedisNodes(5)
class ExtensionPacingIT {

    private static final Logger log = LoggerFactory.getLogger(ExtensionPacingIT.class);
    private static final Duration TTL = Duration.ofSeconds(1);
    private static final Duration NODE_TIMEOUT = Duration.ofMillis(50);
    /** TTL - drift (1 % + 2 ms) - per-node timeout. */
    private static final Duration LATEST = Duration.ofMillis(938);
    private static final Duration HOLD = Duration.ofSeconds(3);

    private static long evalshaCalls(RedisServer node) {
        String stats = node.redis(r -> r.info("commandstats"));
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:calls=")) {
                return Long.parseLong(line.substring(line.indexOf('=') + 1, line.indexOf(',')));
            }
        }
        return 0;
    }

    @Test
    void aThresholdTooCloseToTheTtlIsRefusedNamingBothNumbers(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).nodeTimeout(NODE_TIMEOUT).build()) {
            LockOptions late = LockOptions.builder().ttl(TTL).extendWhenRemaining(TTL.multipliedBy(95).dividedBy(100))
                    .build();
            assertThatThrownBy(() -> redlock.withLock("late", late, lease -> null))
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining(LATEST.toString())
                    .hasMessageContaining("PT0.95S");
            assertThatThrownBy(() -> redlock.lock("late", late)).isInstanceOf(RedlockConfigException.class);
        }
    }

    @Test
    void atTheLatestThresholdExtensionsArePacedByThePerNodeTimeout(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).nodeTimeout(NODE_TIMEOUT).build()) {
            LockOptions latest = LockOptions.builder().ttl(TTL).extendWhenRemaining(LATEST).build();
            long before = evalshaCalls(nodes.node(0));
            redlock.withLock("paced", latest, lease -> {
                long end = System.nanoTime() + HOLD.toNanos();
                while (System.nanoTime() - end < 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                    if (Thread.currentThread().isInterrupted()) {
                        throw new IllegalStateException("the lease was lost");
                    }
                }
                return null;
            });
            long rounds = evalshaCalls(nodes.node(0)) - before;
            log.info("{} EVALSHA on one node during a {} hold at extendWhenRemaining {}", rounds, HOLD, LATEST);
            // acquire + release + at most one extension per per-node timeout
            assertThat(rounds).isLessThanOrEqualTo(2 + HOLD.dividedBy(NODE_TIMEOUT) + 1);
        }
    }
}
