package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A fresh client does not make its first round pay for what starting costs: {@code build()} returns once every node
 * has run a lock operation's script (a release that matches nothing), so the first acquisition's round is not the one
 * that encodes the first script call, loads the reply path or finds a script missing. The warm-up writes nothing.
 */
@WithRedisNodes(3)
class ColdStartIT {

    @Test
    void buildReturnsOnceEveryNodeRanALockScriptThatWroteAndAnnouncedNothing(RedisNodes nodes) {
        nodes.servers().forEach(RedisServer::resetStats);

        try (Redlock redlock = redlockOn(nodes).build()) {
            for (RedisServer node : nodes.servers()) {
                assertThat(node.calls("evalsha")).as("script calls on %s when build() returned", node).isOne();
                assertThat(node.calls("publish")).as("announcements").isZero();
                assertThat(node.calls("del")).as("deletes").isZero();
                long keys = node.redis(redis -> redis.dbsize());
                assertThat(keys).as("keys").isZero();
            }
            assertThat(redlock.tryAcquire("first", Duration.ofSeconds(5))).isPresent();
        }
    }

    @Test
    void aClientBuiltWhileANodeIsStoppedLocksWithTheOthersAndTheWarmUpWritesNothingThere(RedisNodes nodes) {
        RedisServer stopped = nodes.node(2);
        stopped.pause();
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("while-stopped", Duration.ofSeconds(5)).orElseThrow();
            stopped.resume();
            lease.release();
        } finally {
            if (stopped.isPaused()) {
                stopped.resume();
            }
        }
        for (RedisServer node : nodes.servers()) {
            List<String> keys = node.redis(redis -> redis.keys("*redlock:warm-up*"));
            assertThat(keys).as("warm-up keys on %s", node).isEmpty();
        }
    }
}
