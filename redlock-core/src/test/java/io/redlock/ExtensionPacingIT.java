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
    /**
     * Long enough that at the latest threshold a lease is lost only if no extension lands for over 4.7 s (a fault, not
     * a pause of a loaded machine); the node timeout, which paces the rounds, one a running node answers within.
     */
    private static final Duration TTL = Duration.ofSeconds(5);
    private static final Duration NODE_TIMEOUT = ItSupport.NODE_TIMEOUT;
    /** TTL - drift (1 % + 2 ms) - per-node timeout. */
    private static final Duration LATEST = Duration.ofMillis(5_000 - 52 - 200);
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
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining("at most 4.748s")
                    .hasMessageContaining("4.75s");
            assertThatThrownBy(() -> redlock.lock("late", late)).isInstanceOf(RedlockConfigException.class);
        }
    }

    @Test
    void atTheLatestThresholdExtensionsArePacedByThePerNodeTimeout(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).nodeTimeout(NODE_TIMEOUT).build()) {
            LockOptions latest = LockOptions.builder().ttl(TTL).extendWhenRemaining(LATEST).build();
            long[] calls = new long[2];
            long[] held = new long[2];
            redlock.withLock("paced", latest, lease -> {
                calls[0] = evalshaCalls(nodes.node(0));
                held[0] = System.nanoTime();
                long end = held[0] + HOLD.toNanos();
                while (System.nanoTime() - end < 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
                    if (Thread.currentThread().isInterrupted()) {
                        throw new IllegalStateException("the lease was lost");
                    }
                }
                held[1] = System.nanoTime();
                calls[1] = evalshaCalls(nodes.node(0));
                return null;
            });
            long rounds = calls[1] - calls[0];
            // counted over the hold as it was (longer than HOLD if this thread was descheduled)
            Duration hold = Duration.ofNanos(held[1] - held[0]);
            log.info("{} EVALSHA on one node during a {} hold at extendWhenRemaining {}", rounds, hold, LATEST);
            // at most one extension per per-node timeout, and one more call in flight at each end (the acquisition's
            // commit or cleanup, the round under way when the first count was read)
            assertThat(rounds).isLessThanOrEqualTo(hold.dividedBy(NODE_TIMEOUT) + 2);
        }
    }
}
