package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.internal.parts.FaultHooks;
import io.redlock.internal.protocol.Keys;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two permits held at once never share a token, on three real nodes, in the race the model found
 * (verification/semaphore.pml, "sunique"): the counter is the resource's, one for every slot, so a grant of another
 * slot can raise a node's counter to exactly the token a commit round then brings.
 *
 * <p>Counters 0, 1, 0 and node 2 stalled. X asks for a permit and decides on nodes 0 and 1, granted 1 and 2: T = 2,
 * node 0 gets the commit round. X is paused before it; node 2 comes back (and grants X late: 1); Y, a client of nodes
 * 0 and 2, takes the other slot there with grants 2 and 2, usable at once with token 2. X's commit of 2 then finds
 * node 0's counter at 2: granted, two permits would hold token 2; refused (the counter reached T by a grant X never
 * saw), X is not granted.
 */
@WithRedisNodes(3)
class SemaphoreTokensIT {

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final Duration PATIENCE = units(100);

    @Test
    void aCommitOfATokenAnotherPermitWasGrantedIsRefused(RedisNodes nodes) throws Exception {
        FaultHooks hooks = new FaultHooks();
        nodes.node(1).redis(r -> r.set("sem:tok" + Keys.FENCE_SUFFIX, "1"));
        // x decides on nodes 0 and 1, y on 0 and 2: every node a client decides on must answer
        try (Redlock x = TestInjection.with(ItSupport.countingFromOne(redlockOn(nodes)), hooks)
                .nodeTimeout(EveryNodeAnswers.NODE_TIMEOUT).build();
                Redlock y = ItSupport.countingFromOne(Redlock.builder().nodes(nodes.node(0).uri(), nodes.node(2).uri()))
                        .nodeTimeout(EveryNodeAnswers.NODE_TIMEOUT).build()) {
            x.ping();
            y.ping(); // every connection open before node 2 stalls
            nodes.node(2).pause();
            CompletableFuture<Void> resume = new CompletableFuture<>();
            hooks.armUntil("sem:tok", FaultHooks.Point.BEFORE_COMMIT, resume, PATIENCE);
            // from a thread of its own: the pause may fire on the thread that asks
            CompletableFuture<Optional<Lease>> first = CompletableFuture
                    .supplyAsync(() -> x.semaphore("sem:tok", 2).tryAcquireAsync(TTL))
                    .thenCompose(stage -> stage);
            await().atMost(PATIENCE).pollInterval(Duration.ofMillis(10))
                    .until(() -> !hooks.isArmed("sem:tok", FaultHooks.Point.BEFORE_COMMIT));
            nodes.node(2).resume();
            await().atMost(PATIENCE).until(() -> "1".equals(nodes.node(2).get("sem:tok" + Keys.FENCE_SUFFIX)));
            Lease other = y.semaphore("sem:tok", 2).tryAcquire(TTL).orElseThrow();
            assertThat(other.fencingToken()).isEqualTo(2);
            resume.complete(null);
            Optional<Lease> mine = first.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(mine.map(Lease::fencingToken)).as("X's token, if X holds a permit")
                    .isNotEqualTo(Optional.of(2L));
            mine.ifPresent(Lease::release);
            other.release();
        } finally {
            if (nodes.node(2).isPaused()) {
                nodes.node(2).resume();
            }
        }
    }
}
