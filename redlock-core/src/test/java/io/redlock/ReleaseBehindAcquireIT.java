package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.TcpProxy;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A release that follows a round decided before a slow node answered: its delete goes to that node right behind the
 * acquire on the same connection, so the next acquisition of the resource finds the key gone there too instead of
 * being refused (and, with fencing, leaving that node's counter behind the others).
 */
@WithRedisNodes(5)
class ReleaseBehindAcquireIT {

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final int PAIRS = 10;

    @Test
    void theNextAcquisitionIsGrantedOnTheNodeThatAnsweredLate(RedisNodes nodes) {
        RedisServer slow = nodes.node(4);
        try (TcpProxy proxy = TcpProxy.start(slow.host(), slow.port()).delay(Duration.ofMillis(20))) {
            List<String> uris = new ArrayList<>(nodes.uris().subList(0, 4));
            uris.add(proxy.uri());
            try (Redlock redlock = ItSupport.countingFromOne(Redlock.builder()).nodes(uris.toArray(String[]::new))
                    .nodeTimeout(Duration.ofSeconds(1)).build()) {
                slow.redis(redis -> redis.configResetstat());
                for (int i = 0; i < PAIRS; i++) {
                    redlock.tryAcquire("behind", TTL).orElseThrow().release();
                }
                assertThat(ItSupport.absentEverywhere(nodes, "behind")).isTrue();
            }
            String stats = slow.redis(redis -> redis.info("commandstats"));
            assertThat(stats).as("a refused SET NX asks the key's PTTL").doesNotContain("cmdstat_pttl:");
            String counter = nodes.node(0).get("behind:fence");
            assertThat(counter).isEqualTo(Integer.toString(PAIRS));
            assertThat(slow.get("behind:fence")).as("the slow node's counter").isEqualTo(counter);
        }
    }
}
