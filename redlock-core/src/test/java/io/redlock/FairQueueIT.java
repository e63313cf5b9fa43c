package io.redlock;

import static io.redlock.ItSupport.awaitNoQueue;
import static io.redlock.ItSupport.deadlinesOf;
import static io.redlock.ItSupport.queueOf;
import static io.redlock.ItSupport.redlockOn;
import static io.redlock.ItSupport.units;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.ZAddArgs;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** With fencing, waiters queue on the nodes and a free lock goes to the first of them. */
@WithRedisNodes(5)
class FairQueueIT {

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final Duration WAIT = Duration.ofSeconds(60);
    /**
     * Polling far slower than a test takes, even on a loaded machine: between rounds such a waiter is still, unless the
     * lock's events wake it, and its place in the queue lasts minutes (it lapses two retry delays after its last
     * round), so no pause of the test reorders the queue.
     */
    private static final RetryPolicy SLOW_POLLING = RetryPolicy.uniform(Duration.ofSeconds(20), Duration.ofSeconds(30));

    /**
     * Waits until every node has {@code count} waiters queued for {@code resource}. The holder's writes must have
     * reached every node first: a waiter that gets a slow node before the holder does takes it, and a waiter queues
     * only where it is refused.
     */
    private static void awaitQueued(RedisNodes nodes, String resource, long count) {
        await().atMost(units(300)).pollInterval(Duration.ofMillis(2)).until(() -> nodes.servers().stream()
                .allMatch(node -> node.redis(redis -> redis.zcard(queueOf(resource))) == count));
    }

    /** Takes the lock and waits until every node has it. */
    private static Lease holdEverywhere(Redlock client, RedisNodes nodes, String resource) {
        Lease lease = client.tryAcquire(resource, TTL).orElseThrow();
        ItSupport.awaitOnEveryNode(nodes, resource);
        return lease;
    }

    /** Starts a waiting acquisition and returns once every node has {@code count} waiters for the resource. */
    private static CompletableFuture<Optional<Lease>> queue(Redlock client, RedisNodes nodes, String resource,
            long count) {
        CompletableFuture<Optional<Lease>> waiting = client.acquireAsync(resource, TTL, WAIT).toCompletableFuture();
        awaitQueued(nodes, resource, count);
        return waiting;
    }

    /**
     * Queues {@code count} waiters, each a client of its own (added to {@code clients}), one after the other; each
     * tells {@code onLock} its number when it gets the lock and releases it at once. Completes when all had it.
     */
    private static CompletableFuture<?> queueWaiters(RedisNodes nodes, String resource, int count,
            Supplier<Redlock> newClient, List<Redlock> clients, IntConsumer onLock) {
        List<CompletableFuture<?>> done = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int waiter = i;
            Redlock client = newClient.get();
            clients.add(client);
            done.add(queue(client, nodes, resource, i + 1).thenAccept(lease -> {
                onLock.accept(waiter);
                lease.orElseThrow().releaseAsync();
            }));
        }
        return CompletableFuture.allOf(done.toArray(CompletableFuture[]::new));
    }

    @Test
    void aClientThatReleasesAndAsksAgainQueuesBehindTheWaiter(RedisNodes nodes) throws Exception {
        try (Redlock first = redlockOn(nodes).build(); Redlock second = redlockOn(nodes).retry(SLOW_POLLING).build()) {
            Lease held = holdEverywhere(first, nodes, "barging");
            CompletableFuture<Optional<Lease>> waiting = queue(second, nodes, "barging", 1);

            held.release();
            CompletableFuture<Optional<Lease>> again = first.acquireAsync("barging", TTL, WAIT).toCompletableFuture();

            Lease secondLease = waiting.get(10, TimeUnit.SECONDS).orElseThrow();
            assertThat(again).isNotDone();
            secondLease.release();
            again.get(10, TimeUnit.SECONDS).orElseThrow().release();
        }
        awaitNoQueue(nodes, "barging");
    }

    @Test
    void waitersGetTheLockInTheOrderTheyQueued(RedisNodes nodes) throws Exception {
        List<Redlock> clients = new ArrayList<>();
        try (Redlock holder = redlockOn(nodes).build()) {
            Lease held = holdEverywhere(holder, nodes, "in-order");
            List<Integer> order = new CopyOnWriteArrayList<>();
            CompletableFuture<?> done = queueWaiters(nodes, "in-order", 4, redlockOn(nodes).retry(SLOW_POLLING)::build,
                    clients, order::add);
            held.release();
            done.get(20, TimeUnit.SECONDS);
            assertThat(order).containsExactly(0, 1, 2, 3);
        } finally {
            clients.forEach(Redlock::close);
        }
        awaitNoQueue(nodes, "in-order");
    }

    @Test
    void aReleaseWakesTheFirstWaiterOnlyNotTheWholeQueue(RedisNodes nodes) throws Exception {
        // slow polling: after the release only the lock's events make a waiter try again; each waiter releases as
        // soon as it has the lock, so the lock goes down the queue of six. Waking the whole queue at each release
        // would cost 6 + 5 + ... + 1 = 21 rounds; waking the first waiter, one round per waiter
        int waiters = 6;
        List<Redlock> clients = new ArrayList<>();
        try (Redlock holder = redlockOn(nodes).build()) {
            Lease held = holdEverywhere(holder, nodes, "herd");
            List<Integer> order = new CopyOnWriteArrayList<>();
            java.util.concurrent.atomic.AtomicInteger failed = new java.util.concurrent.atomic.AtomicInteger();
            RedlockObserver countsFailures = new RedlockObserver() {
                @Override
                public void nodeFailed(NodeFailure failure) {
                    failed.incrementAndGet(); // a round a node did not answer in time is tried again: 2 more calls
                }
            };
            CompletableFuture<?> done = queueWaiters(nodes, "herd", waiters,
                    () -> Observed.build(redlockOn(nodes).retry(SLOW_POLLING), countsFailures), clients, order::add);
            RedisServer node = nodes.node(0);
            node.redis(redis -> redis.configResetstat());
            held.release();
            done.get(10, TimeUnit.SECONDS);
            assertThat(order).containsExactly(0, 1, 2, 3, 4, 5);
            await().atMost(units(300)).until(() -> node.redis(redis -> redis.zcard(queueOf("herd"))) == 0
                    && node.get("herd") == null);
            long scriptCalls = evalshaCalls(node);
            // the holder's release and each waiter's round and release: 1 + 2 * 6 = 13 (a clean-up round or two
            // still fits; no timer round comes within the test, 20 s)
            assertThat(scriptCalls).isLessThanOrEqualTo(1 + 2L * waiters + 3 + 2L * failed.get());
        } finally {
            clients.forEach(Redlock::close);
        }
        awaitNoQueue(nodes, "herd");
    }

    /** How many EVALSHA and EVAL calls {@code node} ran since its statistics were reset. */
    private static long evalshaCalls(RedisServer node) {
        String stats = node.redis(redis -> redis.info("commandstats"));
        long calls = 0;
        for (String line : stats.split("\\r?\\n")) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                String field = line.substring(line.indexOf("calls=") + "calls=".length());
                calls += Long.parseLong(field.substring(0, field.indexOf(',')));
            }
        }
        return calls;
    }

    @Test
    void waitersQueuedInDifferentOrdersOnDifferentNodesAgreeAndAllGetTheLock(RedisNodes nodes) throws Exception {
        // slow polling: between the reordering below and the release no waiter tries again, and after the release
        // only the lock's own events make them try
        List<Redlock> clients = new ArrayList<>();
        try (Redlock holder = redlockOn(nodes).build()) {
            Lease held = holdEverywhere(holder, nodes, "split");
            CompletableFuture<?> done = queueWaiters(nodes, "split", 3, redlockOn(nodes).retry(SLOW_POLLING)::build, clients,
                    waiter -> { });
            // every node puts a different waiter first (as when their attempts reached the nodes in other orders):
            // no waiter is first on a majority until the tickets they send make the nodes agree
            List<String> waiters = nodes.node(0).redis(redis -> redis.zrange(queueOf("split"), 0, -1));
            int[][] tickets = {{1, 2, 3}, {1, 3, 2}, {2, 1, 3}, {3, 1, 2}, {2, 3, 1}};
            for (int n = 0; n < nodes.size(); n++) {
                int[] order = tickets[n];
                nodes.node(n).redis(redis -> {
                    for (int w = 0; w < waiters.size(); w++) {
                        redis.zadd(queueOf("split"), ZAddArgs.Builder.xx(), order[w], waiters.get(w));
                    }
                    return null;
                });
            }
            held.release();
            // woken by the release and by each other's clean-ups: their polling alone would take 20 s at least
            done.get(10, TimeUnit.SECONDS);
        } finally {
            clients.forEach(Redlock::close);
        }
        awaitNoQueue(nodes, "split");
    }

    @Test
    void aTimedCallerQueuesBehindAWaiterButAnUntimedOneTakesTheFreeLock(RedisNodes nodes) throws Exception {
        // the waiter polls slowly and is not woken, so the lock stays free for a while with the waiter queued
        try (Redlock holder = redlockOn(nodes).build();
                Redlock waiter = redlockOn(nodes).retry(SLOW_POLLING).wakeOnRelease(false).build();
                Redlock newcomer = redlockOn(nodes).build()) {
            Lease held = holdEverywhere(holder, nodes, "barging-newcomer");
            CompletableFuture<Optional<Lease>> waiting = queue(waiter, nodes, "barging-newcomer", 1);
            held.release();
            assertThat(ItSupport.absentEverywhere(nodes, "barging-newcomer")).isTrue();

            assertThat(newcomer.acquire("barging-newcomer", TTL, units(2))).isEmpty();
            Lease barged = newcomer.tryAcquire("barging-newcomer", TTL).orElseThrow();
            assertThat(waiting).isNotDone();
            barged.release();
            waiter.close(); // it would poll again only in 20 s: closing takes it out of the queue
            assertThat(waiting).isCompletedExceptionally();
        }
        awaitNoQueue(nodes, "barging-newcomer");
    }

    @Test
    void aWaiterThatGivesUpLeavesTheQueue(RedisNodes nodes) throws Exception {
        try (Redlock holder = redlockOn(nodes).build(); Redlock waiter = redlockOn(nodes).build();
                Redlock newcomer = redlockOn(nodes).build()) {
            Lease held = holdEverywhere(holder, nodes, "given-up");
            assertThat(waiter.acquire("given-up", TTL, units(3))).isEmpty();
            awaitNoQueue(nodes, "given-up");
            held.release();
            newcomer.tryAcquire("given-up", TTL).orElseThrow().release();
        }
    }

    @Test
    void closingAWaitersClientTakesItOutOfTheQueue(RedisNodes nodes) {
        try (Redlock holder = redlockOn(nodes).build()) {
            Lease held = holdEverywhere(holder, nodes, "closed-waiter");
            Redlock waiter = redlockOn(nodes).build();
            CompletableFuture<Optional<Lease>> waiting = queue(waiter, nodes, "closed-waiter", 1);
            waiter.close(); // lets the queue leaves it sent finish
            assertThat(waiting).isCompletedExceptionally();
            for (RedisServer node : nodes) {
                assertThat(node.<Long>redis(redis -> redis.zcard(queueOf("closed-waiter")))).isZero();
            }
            held.release();
        }
    }

    /**
     * While a crashed waiter's place lives, a newcomer queues behind it; once it lapsed, the next caller gets the lock.
     * The place lapses at the earliest {@code lapseMillis} after {@code placed} (the nodes' clock is this machine's):
     * a grant seen before that is a grant past a live place; one seen later says nothing (this test may have paused).
     */
    @Test
    void aCrashedWaitersPlaceLapsesAndTheNextCallerGetsTheLock(RedisNodes nodes) {
        long lapseMillis = 800;
        long placed = System.nanoTime();
        for (RedisServer node : nodes) { // a waiter that queued and then died, leaving its place behind
            node.redis(redis -> {
                List<String> time = redis.time();
                long nowMillis = Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
                redis.zadd(queueOf("crashed"), 1, "ghost");
                return redis.zadd(deadlinesOf("crashed"), nowMillis + lapseMillis, "ghost");
            });
        }
        try (Redlock client = redlockOn(nodes).build()) {
            Optional<Lease> early = client.acquire("crashed", TTL, units(2));
            long seenMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - placed);
            if (early.isPresent()) {
                assertThat(seenMillis).as("granted while the ghost's place lived (queued behind the ghost)")
                        .isGreaterThanOrEqualTo(lapseMillis);
                early.get().release();
            }
            client.acquire("crashed", TTL, WAIT).orElseThrow().release(); // once the ghost's place lapsed
        }
        awaitNoQueue(nodes, "crashed");
    }

    @Test
    void withoutFencingNoQueueIsKept(RedisNodes nodes) throws Exception {
        try (Redlock holder = redlockOn(nodes).fencing(false).build();
                Redlock waiter = redlockOn(nodes).fencing(false).build()) {
            Lease held = holdEverywhere(holder, nodes, "plain-waiting");
            CompletableFuture<Optional<Lease>> waiting = waiter.acquireAsync("plain-waiting", TTL, WAIT)
                    .toCompletableFuture();
            Thread.sleep(units(2).toMillis()); // several refused rounds
            for (RedisServer node : nodes) {
                assertThat(node.<Long>redis(redis -> redis.exists(queueOf("plain-waiting")))).isZero();
            }
            held.release();
            waiting.get(10, TimeUnit.SECONDS).orElseThrow().release();
        }
    }
}
