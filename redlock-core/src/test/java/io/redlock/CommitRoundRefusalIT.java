package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.internal.parts.FaultHooks;
import io.redlock.internal.protocol.Keys;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The commit round's refusals (FENCING.md step 3) against real nodes: between the acquire and the commit round a
 * node's counter is raised past T (the commit answers -1) or its lock key disappears (it answers 0). The lease is
 * granted only if a majority is still committed; otherwise nothing is left behind; no counter goes down and no
 * token is lower than an earlier one.
 *
 * <p>Set-up, on 3 nodes: counters 5, 3, 1 after an earlier lease; node 2 is stalled, so the client decides on the
 * grants of nodes 0 and 1 (6 and 4): T = 6, node 0 is committed, node 1 gets the commit round. Node 2 either stays
 * stalled through the commit round or is resumed, and then its late grant (2) is committed to T.
 */
@WithRedisNodes(3)
class CommitRoundRefusalIT {

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final Duration PATIENCE = units(100);
    /** The token of the lease before the counters were moved apart. */
    private static final long EARLIER = 1;
    /** The token the attempt chooses: node 0's grant. */
    private static final long T = 6;

    private RedisNodes nodes;
    private final FaultHooks hooks = new FaultHooks();

    @AfterEach
    void cleanUp() {
        if (nodes != null) {
            nodes.servers().stream().filter(RedisServer::isPaused).forEach(RedisServer::resume);
        }
    }

    /**
     * Nodes 0 and 1 must be counted in the acquire round, and a resumed node 2 in the commit round: a node timeout
     * they answer within on a loaded machine (the stalled node 2 costs it once where no majority is left).
     */
    private Redlock redlock(RedisNodes nodes) {
        return TestInjection.with(ItSupport.countingFromOne(redlockOn(nodes)), hooks)
                .nodeTimeout(EveryNodeAnswers.NODE_TIMEOUT).build();
    }

    private static String fence(String resource) {
        return resource + Keys.FENCE_SUFFIX;
    }

    private static long counter(RedisServer node, String resource) {
        String value = node.get(fence(resource));
        return value == null ? 0 : Long.parseLong(value);
    }

    /** A lock key that disappears on node 1 (expired there, or the node lost it) before its commit arrives. */
    private static Consumer<RedisServer> lockKeyGone(String resource) {
        return node -> node.redis(r -> r.del(resource));
    }

    /** A counter raised past T on node 1 by a grant the client never saw. */
    private static Consumer<RedisServer> counterRaisedPastTheToken(String resource) {
        return node -> node.redis(r -> r.incrby(fence(resource), 100));
    }

    /**
     * Runs one acquisition on the set-up of the class comment, after an earlier lease with token {@link #EARLIER};
     * {@code onNode1} happens between its acquire and its commit round; node 2 is resumed then if
     * {@code node2Answers}, else after the attempt ended.
     */
    private Optional<Lease> attempt(Redlock redlock, RedisNodes nodes, String resource,
            Consumer<RedisServer> onNode1, boolean node2Answers) throws Exception {
        this.nodes = nodes;
        Lease earlier = redlock.tryAcquire(resource, TTL).orElseThrow();
        earlier.release();
        assertThat(earlier.fencingToken()).isEqualTo(EARLIER);
        // attempts that reached only a minority moved nodes 0 and 1 ahead
        nodes.node(0).redis(r -> r.incrby(fence(resource), 4));
        nodes.node(1).redis(r -> r.incrby(fence(resource), 2));
        nodes.node(2).pause();

        CompletableFuture<Void> resume = new CompletableFuture<>();
        hooks.armUntil(resource, FaultHooks.Point.BEFORE_COMMIT, resume, PATIENCE);
        // from a thread of its own: when the replies are in before the call returns, the pause fires on the calling
        // thread, which must not be this one
        CompletableFuture<Optional<Lease>> pending = CompletableFuture
                .supplyAsync(() -> redlock.tryAcquireAsync(resource, TTL)).thenCompose(Function.identity());
        await().atMost(PATIENCE).pollInterval(Duration.ofMillis(10))
                .until(() -> !hooks.isArmed(resource, FaultHooks.Point.BEFORE_COMMIT));
        assertThat(counter(nodes.node(0), resource)).isEqualTo(T);
        assertThat(counter(nodes.node(1), resource)).isEqualTo(4);
        onNode1.accept(nodes.node(1));
        if (node2Answers) {
            nodes.node(2).resume();
        }
        resume.complete(null);
        Optional<Lease> lease = pending.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        if (lease.isEmpty()) {
            // released where it was granted, before "not acquired" was reported
            assertThat(ItSupport.absentEverywhere(nodes, resource)).isTrue();
        }
        nodes.node(2).resume();
        return lease;
    }

    /**
     * After the attempt: node 2's late grant is released too, and a new lease's token is above {@code above}, the
     * largest token handed out so far.
     */
    private static void nothingLeftBehindAndTokensStillGrow(Redlock redlock, RedisNodes nodes, String resource,
            long above) {
        await().atMost(PATIENCE).pollInterval(units(1))
                .until(() -> ItSupport.absentEverywhere(nodes, resource));
        Lease next = redlock.tryAcquire(resource, TTL).orElseThrow();
        assertThat(next.fencingToken()).isGreaterThan(above);
        next.release();
    }

    @Test
    void aCounterRaisedPastTheTokenRefusesTheCommitAndWithoutAMajorityNothingIsGranted(RedisNodes nodes)
            throws Exception {
        try (Redlock redlock = redlock(nodes)) {
            Optional<Lease> lease = attempt(redlock, nodes, "raised", counterRaisedPastTheToken("raised"), false);

            assertThat(lease).isEmpty();
            assertThat(counter(nodes.node(0), "raised")).isEqualTo(T);
            assertThat(counter(nodes.node(1), "raised")).as("never lowered to T").isEqualTo(104);
            nothingLeftBehindAndTokensStillGrow(redlock, nodes, "raised", EARLIER);
        }
    }

    @Test
    void aCounterRaisedPastTheTokenOnOneNodeStillGrantsWithTheOtherMajorityAtTheToken(RedisNodes nodes)
            throws Exception {
        try (Redlock redlock = redlock(nodes)) {
            Lease lease = attempt(redlock, nodes, "raised1", counterRaisedPastTheToken("raised1"), true)
                    .orElseThrow();

            assertThat(lease.fencingToken()).isEqualTo(T).isGreaterThan(EARLIER);
            assertThat(counter(nodes.node(0), "raised1")).isEqualTo(T);
            assertThat(counter(nodes.node(1), "raised1")).as("never lowered to T").isEqualTo(104);
            assertThat(counter(nodes.node(2), "raised1")).as("the late grant, committed to T").isEqualTo(T);
            assertThat(ItSupport.holding(nodes, "raised1", lease.value())).isEqualTo(3); // node 1's key until release
            lease.release();
            nothingLeftBehindAndTokensStillGrow(redlock, nodes, "raised1", T);
        }
    }

    @Test
    void aLockKeyGoneBeforeItsCommitIsNotCountedAndWithoutAMajorityNothingIsGranted(RedisNodes nodes)
            throws Exception {
        try (Redlock redlock = redlock(nodes)) {
            Optional<Lease> lease = attempt(redlock, nodes, "gone", lockKeyGone("gone"), false);

            assertThat(lease).isEmpty();
            assertThat(counter(nodes.node(1), "gone")).as("not raised: the commit was refused").isEqualTo(4);
            nothingLeftBehindAndTokensStillGrow(redlock, nodes, "gone", EARLIER);
        }
    }

    @Test
    void aLockKeyGoneOnOneNodeStillGrantsWithTheOtherMajorityAtTheToken(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlock(nodes)) {
            Lease lease = attempt(redlock, nodes, "gone1", lockKeyGone("gone1"), true).orElseThrow();

            assertThat(lease.fencingToken()).isEqualTo(T).isGreaterThan(EARLIER);
            assertThat(counter(nodes.node(1), "gone1")).as("not raised: the commit was refused").isEqualTo(4);
            assertThat(counter(nodes.node(2), "gone1")).as("the late grant, committed to T").isEqualTo(T);
            assertThat(ItSupport.valuesOn(nodes, "gone1", 0, 1, 2))
                    .containsExactly(lease.value(), null, lease.value());
            lease.release();
            nothingLeftBehindAndTokensStillGrow(redlock, nodes, "gone1", T);
        }
    }
}
