package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.redlock.internal.protocol.Keys;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * FENCING.md against real nodes: tokens grow, the commit round repairs diverged counters, counters outlive leases and
 * expire when idle, coming back above every token they issued.
 */
@WithRedisNodes(5)
class FencingIT {

    private static final Logger log = LoggerFactory.getLogger(FencingIT.class);
    private static final Duration TTL = Duration.ofSeconds(10);

    private static long counter(RedisServer node, String resource) {
        String value = node.get(resource + Keys.FENCE_SUFFIX);
        return value == null ? 0 : Long.parseLong(value);
    }

    @Test
    void tokensStrictlyIncreaseOverAThousandAcquisitionsWithRandomNodesPaused(RedisNodes nodes) {
        Random random = new Random(20261122);
        List<RedisServer> paused = new ArrayList<>();
        try (Redlock redlock = redlockOn(nodes).build()) {
            long previous = 0;
            int acquisitions = 0;
            while (acquisitions < 1_000) {
                if (acquisitions % 25 == 0) {
                    paused.forEach(RedisServer::resume);
                    paused.clear();
                    int count = random.nextInt(3); // 0, 1 or 2 of 5 nodes stalled
                    List<RedisServer> shuffled = new ArrayList<>(nodes.servers());
                    java.util.Collections.shuffle(shuffled, random);
                    for (RedisServer node : shuffled.subList(0, count)) {
                        node.pause();
                        paused.add(node);
                    }
                }
                Lease lease = redlock.acquire("ledger", TTL, Duration.ofSeconds(10)).orElseThrow();
                assertThat(lease.fencingToken()).as("token of acquisition %d", acquisitions).isGreaterThan(previous);
                previous = lease.fencingToken();
                lease.releaseAsync(); // not awaited: a paused node answers only after it resumes
                acquisitions++;
            }
            log.info("1,000 sequential acquisitions with random stalled nodes: last token {}", previous);
        } finally {
            paused.forEach(RedisServer::resume);
        }
    }

    /**
     * Nodes 0 and 1 are pushed ahead of the earlier token, nodes 2 and 3 restart empty: any majority of the four
     * running nodes holds a counter above the earlier token, so the acquisition's token is above it and its commit
     * round raises the nodes that restarted to it. (With node 4 running too, the three empty nodes can decide alone,
     * however long the node timeout: the documented hazard of restarts without persistence, see
     * {@link #withoutTheClockFloorARestartedNodeSetStartsOverAndTokensGoBack}.)
     */
    @Test
    void theCommitRoundRaisesDivergedCountersAboveEveryEarlierToken(RedisNodes nodes) {
        // nodes 0 and 1 must be heard: a failed attempt waits for their deletes (so the next one finds the key gone)
        // only until the node timeout; the nodes that are down fail at once, so a long one costs nothing
        try (Redlock redlock = ItSupport.countingFromOne(redlockOn(nodes))
                .nodeTimeout(EveryNodeAnswers.NODE_TIMEOUT).build()) {
            long earlier = redlock.tryAcquire("diverged", TTL).orElseThrow().fencingToken();
            ItSupport.awaitOnEveryNode(nodes, "diverged"); // else a slower node's grant could land after the DEL
            redlock.tryAcquire("diverged", TTL); // refused: still held; counters untouched
            // release by hand, then push two nodes' counters ahead with attempts that reach only a minority
            for (RedisServer node : nodes) {
                node.redis(r -> r.del("diverged"));
            }
            nodes.node(2).kill();
            nodes.node(3).kill();
            nodes.node(4).kill();
            for (int i = 0; i < 5; i++) {
                assertThat(redlock.tryAcquire("diverged", TTL)).isEmpty(); // granted by 0 and 1 only, then released
            }
            // the grants of 0 and 1 land on every attempt (their deletes were awaited before the next one)
            await().atMost(units(50)).pollInterval(Duration.ofMillis(10)).untilAsserted(() -> {
                assertThat(counter(nodes.node(0), "diverged")).isEqualTo(earlier + 5);
                assertThat(counter(nodes.node(1), "diverged")).isEqualTo(earlier + 5);
            });
            assertThat(ItSupport.absentEverywhere(nodes, "diverged")).isTrue();
            nodes.node(2).start();
            nodes.node(3).start();
            // the client's connections to 2-3 are back, so that they take part in the next round: a node still
            // reconnecting would be left out of it, and its counter out of the commit
            await().atMost(Duration.ofSeconds(10)).pollInterval(units(1)).until(() -> redlock.ping().subList(0, 4)
                    .stream().allMatch(PingResult::answered));
            // nodes 2-3 restarted empty: their counters answer 1 or so, nodes 0-1 answer earlier + 6 or more
            Lease lease = await().atMost(Duration.ofSeconds(10)).pollInterval(units(1))
                    .until(() -> redlock.tryAcquire("diverged", TTL).orElse(null), l -> l != null);
            assertThat(lease.fencingToken()).isGreaterThan(earlier + 5);
            await().atMost(units(50)).pollInterval(Duration.ofMillis(10)).untilAsserted(() -> {
                for (int i = 0; i < 4; i++) {
                    assertThat(counter(nodes.node(i), "diverged")).as("counter on %s", nodes.node(i))
                            .isEqualTo(lease.fencingToken());
                }
            });
        }
    }

    @Test
    void countersSurviveReleaseWithTheirIdleHorizon(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease first = redlock.tryAcquire("kept", TTL).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "kept");
            first.release();
            long horizon = RedlockConfig.DEFAULT_FENCE_COUNTER_TTL.toMillis();
            for (RedisServer node : nodes) {
                assertThat(counter(node, "kept")).isEqualTo(first.fencingToken());
                assertThat(node.pttl("kept" + Keys.FENCE_SUFFIX)).isBetween(horizon - 60_000, horizon);
            }
            Lease second = redlock.tryAcquire("kept", TTL).orElseThrow();
            assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
        }
    }

    @Test
    void countersKeptForeverHaveNoTtl(RedisNodes nodes) {
        try (Redlock redlock = ItSupport.countingFromOne(redlockOn(nodes)).build()) {
            Lease first = redlock.tryAcquire("forever", TTL).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "forever");
            first.release();
            for (RedisServer node : nodes) {
                assertThat(node.pttl("forever" + Keys.FENCE_SUFFIX)).isEqualTo(-1L);
            }
            assertThat(redlock.tryAcquire("forever", TTL).orElseThrow().fencingToken()).isEqualTo(first.fencingToken() + 1);
        }
    }

    @Test
    void anIdleCounterExpiresEverywhereAndComesBackAboveEveryTokenItIssued(RedisNodes nodes) {
        Duration horizon = RedlockConfig.MIN_FENCE_COUNTER_TTL;
        try (Redlock redlock = redlockOn(nodes).fenceCounterTtl(horizon).build()) {
            long last = 0;
            for (int i = 0; i < 3; i++) {
                Lease lease = redlock.tryAcquire("idle", TTL).orElseThrow();
                ItSupport.awaitOnEveryNode(nodes, "idle");
                last = lease.fencingToken();
                lease.release();
            }
            await().atMost(horizon.multipliedBy(3)).pollInterval(units(2)).until(() -> nodes.servers().stream()
                    .allMatch(node -> node.get("idle" + Keys.FENCE_SUFFIX) == null));
            for (RedisServer node : nodes) {
                assertThat((long) node.redis(r -> r.dbsize())).as("nothing left on %s", node).isZero();
            }
            Lease again = redlock.tryAcquire("idle", TTL).orElseThrow();
            assertThat(again.fencingToken()).as("the recreated counters start above the last token").isGreaterThan(last);
            ItSupport.awaitOnEveryNode(nodes, "idle");
            for (RedisServer node : nodes) {
                // expiring within the horizon (-2: it already did, on a machine slow enough to take the horizon here)
                assertThat(node.pttl("idle" + Keys.FENCE_SUFFIX)).as("TTL of the counter on %s", node)
                        .isNotEqualTo(-1L).isLessThanOrEqualTo(horizon.toMillis());
            }
            again.release();
        }
    }

    @Test
    void tokensAreDistinctAcrossConcurrentClients(RedisNodes nodes) throws Exception {
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            Set<Long> tokens = java.util.concurrent.ConcurrentHashMap.newKeySet();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                Redlock redlock = t % 2 == 0 ? a : b;
                Thread thread = new Thread(() -> {
                    for (int i = 0; i < 20; i++) {
                        Lease lease = redlock.acquire("shared", TTL, Duration.ofSeconds(30)).orElseThrow();
                        assertThat(tokens.add(lease.fencingToken())).isTrue();
                        lease.release();
                    }
                });
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join(60_000);
            }
            assertThat(tokens).hasSize(160);
        }
    }

    @Test
    void theClockFloorKeepsTokensGrowingAfterANodeLosesItsCounter(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) { // the clock floor is on by default
            // read before the grant: a second that ends between the two must not make the floor look too low
            long seconds = Long.parseLong(nodes.node(0).redis(r -> r.time()).get(0));
            Lease first = redlock.tryAcquire("floored", TTL).orElseThrow();
            assertThat(first.fencingToken()).isGreaterThanOrEqualTo(seconds << 20).isLessThan(1L << 53);
            first.release();
            // every node restarts empty, after a pause longer than a second
            for (RedisServer node : nodes) {
                node.kill();
            }
            await().pollDelay(Duration.ofMillis(1_100)).atMost(Duration.ofSeconds(5)).until(() -> true);
            for (RedisServer node : nodes) {
                node.start();
            }
            Lease second = await().atMost(Duration.ofSeconds(10)).pollInterval(units(1))
                    .until(() -> redlock.tryAcquire("floored", TTL).orElse(null), l -> l != null);
            assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
        }
    }

    @Test
    void withoutTheClockFloorARestartedNodeSetStartsOverAndTokensGoBack(RedisNodes nodes) {
        try (Redlock redlock = ItSupport.countingFromOne(redlockOn(nodes)).build()) {
            for (int i = 0; i < 3; i++) {
                redlock.tryAcquire("forgotten", TTL).orElseThrow().release();
            }
            for (RedisServer node : nodes) {
                node.restart();
            }
            Lease after = await().atMost(Duration.ofSeconds(10)).pollInterval(units(1))
                    .until(() -> redlock.tryAcquire("forgotten", TTL).orElse(null), l -> l != null);
            // the documented hazard: no persistence, no clock floor -> the counter starts over
            assertThat(after.fencingToken()).isEqualTo(1);
        }
    }

    @Test
    void withFencingOffTheLockIsAPlainSetNxKeyThatOtherClientsRespect(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).fencing(false).build()) {
            // another Redlock client holds the resource with a plain SET NX PX on every node
            for (RedisServer node : nodes) {
                node.redis(r -> r.set("plain", "their-value", SetArgs.Builder.nx().px(10_000)));
            }
            assertThat(redlock.tryAcquire("plain", TTL)).isEmpty();
            for (RedisServer node : nodes) {
                node.redis(r -> r.del("plain"));
            }
            Lease lease = redlock.tryAcquire("plain", TTL).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "plain");
            assertThatThrownBy(lease::fencingToken).isInstanceOf(RedlockException.class)
                    .hasMessageContaining("fencing(false)");
            for (RedisServer node : nodes) {
                // nothing but the plain key, and the other client's SET NX is refused
                assertThat(node.get("plain" + Keys.FENCE_SUFFIX)).isNull();
                String theirs = node.redis(r -> r.set("plain", "their-value", SetArgs.Builder.nx().px(10_000)));
                assertThat(theirs).isNull();
            }
            // the other client's standard release script, given our value, releases our lock
            String release = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) "
                    + "else return 0 end";
            for (RedisServer node : nodes) {
                Long deleted = node.redis(r -> r.eval(release, ScriptOutputType.INTEGER, new String[] {"plain"},
                        lease.value()));
                assertThat(deleted).isEqualTo(1L);
            }
        }
    }

    @Test
    void aFencedLockIsStillAPlainKeyForOtherClients(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("mixed", TTL).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "mixed");
            for (RedisServer node : nodes) {
                assertThat(node.get("mixed")).isEqualTo(lease.value());
                String theirs = node.redis(r -> r.set("mixed", "x", SetArgs.Builder.nx().px(10_000)));
                assertThat(theirs).isNull();
            }
            Set<Long> seen = new HashSet<>();
            for (RedisServer node : nodes) {
                seen.add(counter(node, "mixed"));
            }
            assertThat(seen).containsExactly(lease.fencingToken());
        }
    }
}
