package io.redlock.histories;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.Observed;
import io.redlock.Redlock;
import io.redlock.fencing.FencedRedis;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.RedisServerBuilder;
import io.redlock.testkit.TcpProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the generated histories of one test class run on: five lock nodes whose clocks can be shifted, a proxy in front
 * of each (the clients connect through them), a storage node with a {@link FencedRedis} on it, and the faults a
 * sequence may inject. The faults stay on a minority, one node each, so the model's claims hold under them: node 0 is
 * restarted empty, node 1's clock jumps forward past every lease, node 2 answers late (within the per-node timeout).
 */
final class HistoryNodes implements AutoCloseable {

    static final Duration NODE_TIMEOUT = Duration.ofMillis(100);

    /** The faults a history may inject between its calls, each on one node of a minority. */
    enum Fault {
        NODE_RESTARTED, CLOCK_JUMP, NODE_LATE, NODE_ON_TIME;

        void on(HistoryNodes bench) {
            switch (this) {
                case NODE_RESTARTED -> bench.restartEmpty();
                case CLOCK_JUMP -> bench.clockJump();
                case NODE_LATE -> bench.late(true);
                case NODE_ON_TIME -> bench.late(false);
            }
        }
    }
    private static final Duration LATE = Duration.ofMillis(30);

    final RedisNodes nodes;
    final List<TcpProxy> proxies = new ArrayList<>();
    final RedisServer storage;
    private final RedisClient storageClient;
    private final StatefulRedisConnection<String, String> storageConnection;
    final FencedRedis fenced;
    private Duration ahead = Duration.ZERO;

    HistoryNodes() {
        nodes = RedisNodes.start(5, RedisServerBuilder::clockShift);
        for (RedisServer node : nodes) {
            proxies.add(TcpProxy.start(node.host(), node.port()));
        }
        storage = RedisServer.launch();
        storageClient = RedisClient.create(storage.uri());
        storageConnection = storageClient.connect();
        fenced = FencedRedis.on(storageConnection);
    }

    /** A client through the proxies, with a per-node timeout above the late node's latency, counting failures. */
    Redlock client(NodeFailures failures) {
        return Observed.build(Redlock.builder().nodes(proxies.stream().map(TcpProxy::uri).toList())
                .nodeTimeout(NODE_TIMEOUT), failures);
    }

    /** Node 0 killed and restarted empty. */
    void restartEmpty() {
        nodes.node(0).restart();
    }

    /** Node 1's clock another minute ahead: every key there expires at once. */
    void clockJump() {
        ahead = ahead.plusMinutes(1);
        nodes.node(1).shiftClock(ahead);
    }

    /** Node 2 answers late (within the per-node timeout), or on time again. */
    void late(boolean on) {
        proxies.get(2).delay(on ? LATE : Duration.ZERO);
    }

    /** Every fault healed: clocks right, no latency. */
    void heal() {
        if (!ahead.isZero()) {
            ahead = Duration.ZERO;
            nodes.node(1).shiftClock(ahead);
        }
        proxies.forEach(TcpProxy::heal);
    }

    /** Deletes {@code key} on every node, as if it had expired everywhere. */
    void expireEverywhere(String key) {
        for (RedisServer node : nodes) {
            node.redis(commands -> commands.del(key));
        }
    }

    /** True if no node holds {@code key}, waiting (bounded) for deletes still on their way. */
    boolean goneEverywhere(String key, Duration within) throws InterruptedException {
        return valueGone(key, null, within);
    }

    /** True if no node holds {@code value} (any value if null) at {@code key}, waiting (bounded). */
    boolean valueGone(String key, String value, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (nodes.servers().stream().map(node -> node.get(key))
                .anyMatch(held -> held != null && (value == null || value.equals(held)))) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    /** What each node holds at {@code key}, with its PTTL, for a failure's message. */
    String holdersOf(String key) {
        return nodes.servers().stream().map(node -> node.address() + "=" + node.get(key) + " (pttl " + node.pttl(key)
                + ")").toList().toString();
    }

    @Override
    public void close() {
        storageConnection.close();
        storageClient.shutdown();
        storage.close();
        proxies.forEach(TcpProxy::close);
        nodes.close();
    }
}
