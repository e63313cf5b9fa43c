package io.redlock;

import static io.redlock.ItSupport.deadlinesOf;
import static io.redlock.ItSupport.queueOf;
import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.ScoredValue;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * With fencing, as in {@code java.util.concurrent}'s fair locks: an untimed {@code tryAcquire} takes a lock that is
 * free at that instant even while others are queued; a timed acquisition queues behind them.
 */
@WithRedisNodes(5)
class BargingIT {

    private static final Duration TTL = Duration.ofSeconds(10);

    /** A waiter that crashed while queued: its place lasts another minute on every node. */
    private static void plantCrashedWaiter(RedisNodes nodes, String resource) {
        nodes.forEach(node -> node.redis(r -> {
            long nowMillis = Long.parseLong(r.time().get(0)) * 1000;
            r.zadd(queueOf(resource), ScoredValue.just(1, "crashed-waiter"));
            r.zadd(deadlinesOf(resource),
                    ScoredValue.just(nowMillis + 60_000, "crashed-waiter"));
            return r.pexpire(queueOf(resource), 60_000) && r.pexpire(deadlinesOf(resource), 60_000);
        }));
    }

    @Test
    void anUntimedTryAcquireTakesAFreeLockWhileOthersAreQueued(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            plantCrashedWaiter(nodes, "barged");
            Lease lease = redlock.tryAcquire("barged", TTL).orElseThrow();
            assertThat(lease.fencingToken()).isPositive();
            lease.release();
            assertThat(nodes.node(0).<List<String>>redis(r -> r.zrange(queueOf("barged"), 0, -1)))
                    .as("the queue is untouched").containsExactly("crashed-waiter");
        }
    }

    @Test
    void aTimedAcquisitionQueuesBehindTheWaitersAlreadyThere(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            plantCrashedWaiter(nodes, "queued");
            Optional<Lease> lease = redlock.acquire("queued", TTL, units(3));
            assertThat(lease).as("a free lock behind a live waiter's place").isEmpty();
        }
    }
}
