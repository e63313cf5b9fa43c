package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.internal.protocol.Keys;
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
                .stream().allMatch(node -> node.get(resource + Keys.FENCE_SUFFIX) == null));
    }

    /** The tokens before and after the resource's counters expired and every node's clock went {@code back}. */
    private long[] tokensAroundExpiryAndAStepBack(RedisNodes nodes, String resource, Duration back) {
        this.nodes = nodes;
        try (Redlock redlock = redlockOn(nodes).fenceCounterTtl(HORIZON).build()) {
            long before = lockAndRelease(redlock, resource);
            awaitCountersExpired(resource);
            for (RedisServer node : nodes) {
                node.shiftClock(back.negated());
            }
            return new long[] {before, lockAndRelease(redlock, resource)};
        }
    }

    @Test
    void aMajorityWhoseClocksWentBackByMoreThanTheHorizonHandsOutALowerToken(RedisNodes nodes) {
        long[] tokens = tokensAroundExpiryAndAStepBack(nodes, "stepped", Duration.ofSeconds(60)); // far beyond 2 s
        assertThat(tokens[1]).as("the documented hazard: the floor of a clock 60 s back is below the last token")
                .isLessThan(tokens[0]);
    }

    @Test
    void aMajorityWhoseClocksWentBackByLessThanTheTimeSinceTheLastGrantKeepsTheOrder(RedisNodes nodes) {
        long[] tokens = tokensAroundExpiryAndAStepBack(nodes, "kept", Duration.ofSeconds(1)); // < the 2 s since
        assertThat(tokens[1]).isGreaterThan(tokens[0]);
    }
}
