package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The clock behaviour that expiring fencing counters rely on (docs/FENCING.md, "Counters that expire"), shown on
 * real nodes whose clocks the shim moves: an expired counter comes back at the node's clock floor, so a majority
 * whose clocks went back by the horizon or more after the counters expired hands out a lower token. Row F17 of the
 * fault matrix shows a step back smaller than that keeping the order.
 */
@WithRedisNodes(value = 3, clockShift = true)
class CounterExpiryClockIT {

    private static final Duration HORIZON = RedlockConfig.MIN_FENCE_COUNTER_TTL;
    private static final Duration TTL = Duration.ofSeconds(5);
    private RedisNodes nodes;

    @AfterEach
    void clocksBack() {
        if (nodes != null) {
            nodes.servers().forEach(node -> node.shiftClock(Duration.ZERO));
        }
    }

    private long lockAndRelease(Redlock redlock, String resource) {
        Lease lease = redlock.tryAcquire(resource, TTL).orElseThrow();
        ItSupport.awaitOnEveryNode(nodes, resource);
        lease.release();
        return lease.fencingToken();
    }

    private void awaitCountersExpired(String resource) {
        await().atMost(HORIZON.multipliedBy(4)).pollInterval(Duration.ofMillis(50)).until(() -> nodes.servers()
                .stream().allMatch(node -> node.get(resource + RedlockConfig.FENCE_SUFFIX) == null));
    }

    @Test
    void aMajorityWhoseClocksWentBackByMoreThanTheHorizonHandsOutALowerToken(RedisNodes nodes) {
        this.nodes = nodes;
        try (Redlock redlock = redlockOn(nodes).fenceCounterTtl(HORIZON).build()) {
            long before = lockAndRelease(redlock, "stepped");
            awaitCountersExpired("stepped");
            for (RedisServer node : nodes) {
                node.shiftClock(Duration.ofSeconds(-60)); // far more than the 2 s horizon
            }
            long after = lockAndRelease(redlock, "stepped");
            assertThat(after).as("the documented hazard: the floor of a clock 60 s back is below the last token")
                    .isLessThan(before);
        }
    }

    @Test
    void aMajorityWhoseClocksWentBackByLessThanTheTimeSinceTheLastGrantKeepsTheOrder(RedisNodes nodes) {
        this.nodes = nodes;
        try (Redlock redlock = redlockOn(nodes).fenceCounterTtl(HORIZON).build()) {
            long before = lockAndRelease(redlock, "kept");
            awaitCountersExpired("kept");
            for (RedisServer node : nodes) {
                node.shiftClock(Duration.ofSeconds(-1)); // less than the 2 s that passed at least since the last grant
            }
            assertThat(lockAndRelease(redlock, "kept")).isGreaterThan(before);
        }
    }
}
