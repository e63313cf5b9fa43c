package io.redlock;

import io.redlock.internal.protocol.Keys;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Shared settings for the integration tests; every timing margin derives from {@link #UNIT}. */
final class ItSupport {

    /** The base time unit of the integration tests. */
    static final Duration UNIT = Duration.ofMillis(100);
    /** Per-node timeout in tests: generous for a shared 2-core machine, still far below the TTLs. */
    static final Duration NODE_TIMEOUT = UNIT.multipliedBy(2);

    private ItSupport() {
    }

    static Duration units(long n) {
        return UNIT.multipliedBy(n);
    }

    /** A builder on all nodes with the test node timeout and short retry delays. */
    static RedlockBuilder redlockOn(RedisNodes nodes) {
        return Redlock.builder().nodes(nodes.uriArray()).nodeTimeout(NODE_TIMEOUT)
                .retry(RetryPolicy.uniform(Duration.ofMillis(5), Duration.ofMillis(20)));
    }

    /**
     * {@code builder} with counters that never expire and no clock floor: tokens count 1, 2, 3… from a fresh node, for
     * tests of the counters' arithmetic (the floor would raise them to the node's clock).
     */
    static RedlockBuilder countingFromOne(RedlockBuilder builder) {
        return builder.fencingClockFloor(false).fenceCounterTtl(Duration.ZERO);
    }

    /** The value stored under {@code key} on each listed node (null where absent). */
    static List<String> valuesOn(RedisNodes nodes, String key, int... indexes) {
        List<String> values = new ArrayList<>();
        for (int i : indexes) {
            values.add(nodes.node(i).get(key));
        }
        return values;
    }

    /** How many of the running, unpaused nodes hold {@code value} under {@code key}. */
    static long holding(RedisNodes nodes, String key, String value) {
        return nodes.servers().stream().filter(s -> s.isRunning() && !s.isPaused())
                .filter(s -> value.equals(s.get(key))).count();
    }

    /**
     * How long a test waits for what the library promises will happen soon (a write beyond the majority landing, a
     * queue emptied): long enough for a loaded machine; a wait that runs out is a failure.
     */
    static final Duration PATIENCE = Duration.ofSeconds(30);

    /**
     * True if no running, unpaused node has {@code key}, within {@link #PATIENCE}: a release returns once a majority
     * answered, and its deletes to the other nodes land a moment later.
     */
    static boolean absentEverywhere(RedisNodes nodes, String key) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            boolean absent = nodes.servers().stream().filter(s -> s.isRunning() && !s.isPaused())
                    .allMatch(s -> s.get(key) == null);
            if (absent || System.nanoTime() - deadline >= 0) {
                return absent;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    /**
     * Waits until every running, unpaused node has {@code key}: an acquisition returns once a majority granted, and
     * the other nodes' writes land a moment later.
     */
    static void awaitOnEveryNode(RedisNodes nodes, String key) {
        org.awaitility.Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(2))
                .until(() -> nodes.servers().stream().filter(s -> s.isRunning() && !s.isPaused())
                        .allMatch(s -> s.get(key) != null));
    }

    /**
     * Waits (bounded) until a majority of the nodes hold {@code lease}'s value: what a lease promises. Under contention
     * the other nodes may have refused it for good (another attempt's key was there), so not every node.
     */
    static void awaitOnAMajority(RedisNodes nodes, Lease lease) {
        org.awaitility.Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(2))
                .until(() -> nodes.servers().stream().filter(s -> lease.value().equals(s.get(lease.resource())))
                        .count() >= RedlockConfig.quorumOf(nodes.size()));
    }

    /** The waiter queue of {@code resource} (with fencing): a sorted set of waiter ids by ticket. */
    static String queueOf(String resource) {
        return resource + Keys.WAITERS_SUFFIX;
    }

    /** When each place in the waiter queue of {@code resource} lapses. */
    static String deadlinesOf(String resource) {
        return queueOf(resource) + Keys.DEADLINES_SUFFIX;
    }

    /** Waits until no node has a queue, or its deadlines, for {@code resource}. */
    static void awaitNoQueue(RedisNodes nodes, String resource) {
        org.awaitility.Awaitility.await().atMost(PATIENCE).pollInterval(Duration.ofMillis(2))
                .until(() -> nodes.servers().stream().allMatch(
                        node -> node.redis(redis -> redis.exists(queueOf(resource), deadlinesOf(resource))) == 0));
    }

    static long elapsedMillis(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos).toMillis();
    }

    static RedisServer[] all(RedisNodes nodes) {
        return nodes.servers().toArray(RedisServer[]::new);
    }
}
