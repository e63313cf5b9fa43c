package io.redlock;

import static io.redlock.ItSupport.queueOf;
import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.internal.parts.Injected;
import io.redlock.internal.time.ManualScheduler;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The acquisition loop's timing, with time in the test's hands: the client's ticker and scheduler are fakes that
 * move only when the test says so, while the nodes are real. Nothing here sleeps.
 */
@WithRedisNodes(5)
class AcquireTimingIT {

    private static final Duration HELD_FOR = Duration.ofSeconds(60);
    private static final Duration TTL = Duration.ofSeconds(10);
    private static final Duration RETRY = Duration.ofSeconds(20);

    private final FakeTicker ticker = new FakeTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    /** A client on fake time: every retry delay is {@link #RETRY}, every node timeout waits for the test. */
    private RedlockBuilder onFakeTime(RedisNodes nodes) {
        Injected injected = Injected.defaults().scheduler(scheduler).random(() -> () -> 0L);
        return TestInjection.with(redlockOn(nodes), injected).ticker(ticker).retry(RetryPolicy.uniform(RETRY, RETRY));
    }

    private static long calls(RedisServer node, String command) {
        String stats = node.redis(r -> r.info("commandstats"));
        for (String line : stats.split("\r?\n")) {
            if (line.startsWith("cmdstat_" + command + ":calls=")) {
                return Long.parseLong(line.substring(line.indexOf('=') + 1, line.indexOf(',')));
            }
        }
        return 0;
    }

    /** How many script calls {@code node} ran on {@code key} since its slow log (logging every command) was reset. */
    private static long scriptRunsOn(RedisServer node, String key) {
        List<Object> log = node.redis(r -> r.slowlogGet(1000));
        return log.stream().map(entry -> (List<?>) ((List<?>) entry).get(3))
                .filter(args -> "EVALSHA".equalsIgnoreCase(String.valueOf(args.get(0))) && args.contains(key))
                .count();
    }

    /**
     * Waits (real time, bounded) until the loop has settled on exactly one timer, its next round {@link #RETRY} from
     * now (a round in flight has its node timeout pending instead). Timers due now run meanwhile, as a real scheduler
     * would run them.
     */
    private Duration awaitNextRound() {
        try {
            await().atMost(units(50)).pollInterval(Duration.ofMillis(2))
                    .until(() -> scheduler.runDue() == 0 && scheduler.pending().equals(List.of(RETRY)));
        } catch (org.awaitility.core.ConditionTimeoutException e) {
            throw new AssertionError("pending timers: " + scheduler.pending(), e);
        }
        return RETRY;
    }

    @Test
    void noRoundStartsAfterTheWaitRanOutEvenWhenTheTimerFiresLate(RedisNodes nodes) {
        try (Redlock holder = redlockOn(nodes).fencing(false).build();
                Redlock waiter = onFakeTime(nodes).fencing(false).wakeOnRelease(false).build()) {
            Lease held = holder.tryAcquire("budget", HELD_FOR).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "budget");
            CompletableFuture<Optional<Lease>> waiting = waiter
                    .acquireAsync("budget", TTL, RETRY.plus(Duration.ofSeconds(5))).toCompletableFuture();
            awaitNextRound();
            long setsBefore = calls(nodes.node(0), "set");

            ticker.advance(RETRY.plus(Duration.ofSeconds(6))); // the retry timer is late: the wait is over
            scheduler.runDue();

            assertThat(waiting).succeedsWithin(units(50)).isEqualTo(Optional.empty());
            assertThat(calls(nodes.node(0), "set")).as("SETs after the wait ran out").isEqualTo(setsBefore);
            held.release();
        }
    }

    @Test
    void aRoundIsDecidedAtAMajorityWithoutWaitingForTheNodeTimeout(RedisNodes nodes) {
        try (Redlock client = onFakeTime(nodes).build()) {
            List<RedisServer> frozen = nodes.servers().subList(3, 5);
            frozen.forEach(RedisServer::pause);
            try {
                // the node timeout is a task of the fake scheduler: it never fires unless the test moves time
                Lease lease = client.tryAcquireAsync("early", TTL).toCompletableFuture().join().orElseThrow();
                assertThat(lease.remainingValidity()).isEqualTo(TTL.minus(TTL.dividedBy(100)).minusMillis(2));
            } finally {
                frozen.forEach(RedisServer::resume);
            }
        }
    }

    @Test
    void aRefusedWaiterTriesAgainOnceItListensNotAfterItsRetryDelay(RedisNodes nodes) {
        try (Redlock holder = redlockOn(nodes).build(); Redlock waiter = onFakeTime(nodes).build()) {
            Lease held = holder.tryAcquire("listens", HELD_FOR).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "listens");
            RedisServer node = nodes.node(0);
            node.redis(r -> {
                r.configSet("slowlog-log-slower-than", "0");
                return r.slowlogReset();
            });
            CompletableFuture<Optional<Lease>> waiting = waiter.acquireAsync("listens", TTL, HELD_FOR)
                    .toCompletableFuture();

            // time stands still: only its subscription coming into place can start the second round
            await().atMost(units(50)).pollInterval(Duration.ofMillis(2)).until(() -> scheduler.runDue() == 0
                    && scriptRunsOn(node, "listens") == 2 && scheduler.pending().equals(List.of(RETRY)));
            node.redis(r -> r.configSet("slowlog-log-slower-than", "10000")); // Redis's default
            assertThat(waiting).isNotDone();
            waiting.cancel(false);
            held.release();
        }
    }

    @Test
    void cancellingAWaitingAcquisitionStopsItsTimerAndLeavesTheQueue(RedisNodes nodes) {
        // without listening for releases: no extra round once a subscription is in place, the retry timer alone
        try (Redlock holder = redlockOn(nodes).build();
                Redlock waiter = onFakeTime(nodes).wakeOnRelease(false).build()) {
            Lease held = holder.tryAcquire("cancelled", HELD_FOR).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "cancelled");
            CompletableFuture<Optional<Lease>> waiting = waiter.acquireAsync("cancelled", TTL, HELD_FOR)
                    .toCompletableFuture();
            awaitNextRound();
            // the round was decided once a majority refused: node 0's place may be taken a moment later
            await().atMost(units(50)).until(() -> nodes.node(0).<Long>redis(r -> r.zcard(queueOf("cancelled"))) == 1);

            waiting.cancel(false);

            assertThat(scheduler.pending()).isEmpty();
            ItSupport.awaitNoQueue(nodes, "cancelled");
            held.release();
        }
    }

    @Test
    void anInterruptedBlockingAcquisitionStopsItsTimerAndLeavesTheQueue(RedisNodes nodes) throws Exception {
        // without listening for releases: no extra round once a subscription is in place, the retry timer alone
        try (Redlock holder = redlockOn(nodes).build();
                Redlock waiter = onFakeTime(nodes).wakeOnRelease(false).build()) {
            Lease held = holder.tryAcquire("interrupted", HELD_FOR).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "interrupted");
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread blocked = new Thread(() -> {
                try {
                    waiter.acquire("interrupted", TTL, HELD_FOR);
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            blocked.start();
            awaitNextRound();

            blocked.interrupt();
            blocked.join(units(50).toMillis());

            assertThat(thrown.get()).isInstanceOf(RedlockInterruptedException.class);
            assertThat(scheduler.pending()).isEmpty();
            ItSupport.awaitNoQueue(nodes, "interrupted");
            held.release();
        }
    }

    @Test
    void lockWithoutATimeoutKeepsItsOnePlaceInTheQueueWhileItWaits(RedisNodes nodes) throws Exception {
        String resource = "one-place";
        try (Redlock holder = redlockOn(nodes).build(); Redlock waiter = onFakeTime(nodes).build();
                Redlock later = redlockOn(nodes).build()) {
            Lease held = holder.tryAcquire(resource, HELD_FOR).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, resource);
            RedlockLock lock = waiter.lock(resource);
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread first = new Thread(() -> {
                try {
                    lock.lock();
                    lock.unlock();
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            first.start();
            awaitNextRound();
            CompletableFuture<Optional<Lease>> second = later.acquireAsync(resource, TTL, HELD_FOR)
                    .toCompletableFuture();
            await().atMost(units(50)).until(() -> nodes.servers().stream()
                    .allMatch(n -> n.redis(r -> r.zcard(queueOf(resource))) == 2));
            List<String> queued = nodes.node(0).redis(r -> r.zrange(queueOf(resource), 0, -1));

            for (int round = 0; round < 9; round++) { // three minutes of waiting, one round every 20 s
                scheduler.advance(awaitNextRound());
            }
            awaitNextRound();

            assertThat(nodes.node(0).<List<String>>redis(r -> r.zrange(queueOf(resource), 0, -1)))
                    .as("the queue after three minutes").isEqualTo(queued);
            held.release();
            first.join(units(50).toMillis());
            assertThat(first.isAlive()).isFalse();
            assertThat(failed.get()).isNull();
            assertThat(second).succeedsWithin(units(50)).matches(Optional::isPresent);
            second.join().orElseThrow().release();
        }
    }
}
