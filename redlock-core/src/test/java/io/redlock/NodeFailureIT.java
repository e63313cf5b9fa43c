package io.redlock;

import static io.redlock.ItSupport.NODE_TIMEOUT;
import static io.redlock.ItSupport.elapsedMillis;
import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** SPEC P3 and R3: a minority of dead or stalled nodes neither blocks nor slows acquisition. */
@WithRedisNodes(5)
class NodeFailureIT {

    private static final Duration TTL = Duration.ofSeconds(10);

    @Test
    void acquiresWithTwoOfFiveNodesKilled(RedisNodes nodes) {
        // three live nodes of five: each of them must answer, with no slack for a late one
        try (Redlock redlock = EveryNodeAnswers.redlockOn(nodes).build()) {
            nodes.node(0).kill();
            nodes.node(3).kill();
            Optional<Lease> lease = redlock.tryAcquire("two-down", TTL);
            assertThat(lease).isPresent();
            assertThat(ItSupport.holding(nodes, "two-down", lease.get().value())).isEqualTo(3);
            lease.get().release();
            assertThat(ItSupport.absentEverywhere(nodes, "two-down")).isTrue();
        }
    }

    @Test
    void acquiresWhenTwoNodesWereAlreadyDownAtStartup(RedisNodes nodes) {
        nodes.node(1).kill();
        nodes.node(2).kill();
        try (Redlock redlock = EveryNodeAnswers.redlockOn(nodes).build()) {
            assertThat(redlock.tryAcquire("down-at-start", TTL)).isPresent();
        }
    }

    @Test
    void failsFastAndEmptyWithThreeOfFiveNodesKilled(RedisNodes nodes) {
        Duration nodeTimeout = Duration.ofSeconds(8);
        try (Redlock redlock = redlockOn(nodes).nodeTimeout(nodeTimeout).build()) {
            nodes.node(0).kill();
            nodes.node(2).kill();
            nodes.node(4).kill();
            long start = System.nanoTime();
            Optional<Lease> lease = redlock.tryAcquire("three-down", TTL);
            long took = elapsedMillis(start);
            assertThat(lease).isEmpty();
            // refused connections answer at once: it does not wait out the 8 s per-node timeout for them
            assertThat(took).isLessThan(nodeTimeout.dividedBy(2).toMillis());
            // the two live nodes granted, and were released again
            assertThat(ItSupport.absentEverywhere(nodes, "three-down")).isTrue();
        }
    }

    @Test
    void aPausedNodeDoesNotStallAcquisitionBeyondThePerNodeTimeout(RedisNodes nodes) {
        // long enough that the live nodes' answers never come near it on a loaded machine: what takes longer than
        // one timeout waited for a stalled node
        Duration nodeTimeout = Duration.ofSeconds(2);
        try (Redlock holder = redlockOn(nodes).nodeTimeout(nodeTimeout).build();
                Redlock contender = redlockOn(nodes).nodeTimeout(nodeTimeout).build()) {
            nodes.node(0).pause();
            long start = System.nanoTime();
            Lease lease = holder.tryAcquire("paused", TTL).orElseThrow();
            // the majority answered: no need to wait for the paused node at all
            assertThat(elapsedMillis(start)).isLessThan(nodeTimeout.toMillis());

            start = System.nanoTime();
            assertThat(contender.tryAcquire("paused", TTL)).isEmpty();
            // four refusals decide at once; the release after it waits for the paused node only until the same
            // per-node deadline, so a failed attempt costs at most one timeout, never one more for its release
            assertThat(elapsedMillis(start)).isLessThan(nodeTimeout.multipliedBy(2).toMillis());

            nodes.node(1).pause();
            nodes.node(2).pause();
            start = System.nanoTime();
            assertThat(contender.tryAcquire("paused-3", TTL)).isEmpty();
            long took = elapsedMillis(start);
            // three stalled nodes: a majority is decided only by the timeout, and once (not again for the release)
            assertThat(took).isBetween(nodeTimeout.toMillis() - 5, nodeTimeout.multipliedBy(2).toMillis());
            lease.release();
        } finally {
            nodes.servers().stream().filter(s -> s.isPaused()).forEach(s -> s.resume());
        }
    }

    @Test
    void aNodeThatComesBackIsUsedAgain(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            for (int i = 0; i < 3; i++) {
                nodes.node(i).kill();
            }
            assertThat(redlock.tryAcquire("comeback", TTL)).isEmpty();
            nodes.node(0).start();
            await().atMost(Duration.ofSeconds(10)).pollInterval(units(1))
                    .until(() -> redlock.tryAcquire("comeback", TTL).map(l -> {
                        l.release();
                        return true;
                    }).orElse(false));
        }
    }

    @Test
    void failedAcquisitionAgainstStalledNodesCleansUpWhenTheyResume(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).nodeTimeout(NODE_TIMEOUT).build()) {
            nodes.node(0).pause();
            nodes.node(1).pause();
            nodes.node(2).pause();
            assertThat(redlock.tryAcquire("stalled", TTL)).isEmpty();
            nodes.node(0).resume();
            nodes.node(1).resume();
            nodes.node(2).resume();
            // the stalled nodes apply the late SET and then the release queued behind it
            await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> ItSupport.absentEverywhere(nodes, "stalled"));
        }
    }
}
