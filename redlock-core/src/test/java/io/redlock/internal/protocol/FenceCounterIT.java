package io.redlock.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.ScriptOutputType;
import io.redlock.internal.protocol.Keys;
import io.redlock.internal.protocol.Scripts;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The fencing counter's rules ({@code lua/fence-counter.lua}) as the acquire and commit scripts apply them on a real
 * node: every grant and commit gives the counter its idle horizon, and with the clock floor a counter that is gone
 * comes back at the floor, in a commit too, where that floor is above the token being committed.
 */
@WithRedisNodes(1)
class FenceCounterIT {

    private static final String HORIZON_MS = "60000";
    private static final String FOREVER = "0";
    private static final String FLOOR = "1";
    private static final String NO_FLOOR = "0";

    private static long acquire(RedisServer node, Keys keys, String value, String floor, String horizon) {
        return node.redis(r -> r.<Long>eval(Scripts.ACQUIRE_FENCED.text(), ScriptOutputType.INTEGER, keys.acquire(),
                value, "10000", floor, horizon));
    }

    private static long commit(RedisServer node, Keys keys, String value, long token, String floor, String horizon) {
        return node.redis(r -> r.<Long>eval(Scripts.COMMIT_FENCE.text(), ScriptOutputType.INTEGER, keys.acquire(),
                value, Long.toString(token), floor, horizon));
    }

    private static long floorNow(RedisServer node) {
        return Long.parseLong(node.redis(r -> r.time()).get(0)) << 20;
    }

    @Test
    void aGrantGivesTheCounterItsIdleHorizonAndForeverKeepsIt(RedisNodes nodes) {
        RedisServer node = nodes.node(0);
        Keys expiring = Keys.of("counter:expiring");
        long start = System.nanoTime();
        long floorBefore = floorNow(node); // the floor only grows: read after the grant, it may be above the token
        assertThat(acquire(node, expiring, "v1", FLOOR, HORIZON_MS)).isGreaterThanOrEqualTo(floorBefore);
        long pttl = node.pttl(expiring.fence());
        // set after `start` with the horizon: at most the horizon, less at most the time since, and a millisecond
        // of rounding at each end of it
        long sinceStartAtMost = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + 2;
        assertThat(pttl).isBetween(60_000L - sinceStartAtMost, 60_000L);

        Keys kept = Keys.of("counter:kept");
        assertThat(acquire(node, kept, "v1", NO_FLOOR, FOREVER)).isEqualTo(1);
        assertThat(node.pttl(kept.fence())).isEqualTo(-1L);
    }

    @Test
    void aCommitOnACounterThatIsGoneComesBackAtTheFloorAndRefusesALowerToken(RedisNodes nodes) {
        RedisServer node = nodes.node(0);
        Keys keys = Keys.of("counter:gone");
        long granted = acquire(node, keys, "v1", FLOOR, HORIZON_MS);
        node.redis(r -> r.del(keys.fence())); // the counter expired (or was lost) between our grant and our commit
        long lowToken = granted - 5; // a token below the floor: issued before the counter's history was lost

        assertThat(commit(node, keys, "v1", lowToken, FLOOR, HORIZON_MS)).as("refused: the floor is above T")
                .isEqualTo(-1L);
        assertThat(Long.parseLong(node.get(keys.fence()))).isGreaterThanOrEqualTo(granted - 1).isGreaterThan(lowToken);
        assertThat(node.pttl(keys.fence())).as("recreated with its horizon").isPositive();
    }

    @Test
    void aCommitAboveTheCounterRaisesItAndRenewsItsHorizon(RedisNodes nodes) {
        RedisServer node = nodes.node(0);
        Keys keys = Keys.of("counter:raised");
        long granted = acquire(node, keys, "v1", FLOOR, "5000");
        assertThat(commit(node, keys, "v1", granted + 10, FLOOR, HORIZON_MS)).isEqualTo(1L);
        assertThat(Long.parseLong(node.get(keys.fence()))).isEqualTo(granted + 10);
        assertThat(node.pttl(keys.fence())).isGreaterThan(5_000L);
    }

    @Test
    void withoutTheFloorACommitOnAMissingCounterSetsTheTokenAsBefore(RedisNodes nodes) {
        RedisServer node = nodes.node(0);
        Keys keys = Keys.of("counter:unfloored");
        assertThat(acquire(node, keys, "v1", NO_FLOOR, FOREVER)).isEqualTo(1);
        node.redis(r -> r.del(keys.fence()));
        assertThat(commit(node, keys, "v1", 7, NO_FLOOR, FOREVER)).isEqualTo(1L);
        assertThat(node.get(keys.fence())).isEqualTo("7");
        assertThat(node.pttl(keys.fence())).isEqualTo(-1L);
    }

    @Test
    void aCommitWithoutTheLockTouchesNothing(RedisNodes nodes) {
        RedisServer node = nodes.node(0);
        Keys keys = Keys.of("counter:notours");
        assertThat(commit(node, keys, "v1", 7, FLOOR, HORIZON_MS)).isZero();
        assertThat(node.get(keys.fence())).isNull();
    }
}
