package io.redlock.faults;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one key on every lock node over direct connections kept open (not through any proxy), so a test can poll
 * the nodes every few milliseconds.
 */
final class NodeKeys implements AutoCloseable {

    private final RedisClient client = RedisClient.create();
    private final List<RedisServer> servers;
    private final List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();

    NodeKeys(RedisNodes nodes) {
        this.servers = nodes.servers();
        for (RedisServer server : servers) {
            connections.add(client.connect(RedisURI.builder().withHost(server.host()).withPort(server.port())
                    .withTimeout(Duration.ofSeconds(5)).build()));
        }
    }

    /** Waits (polling every 2 ms) until at least {@code count} nodes have {@code key}. */
    void awaitOnAtLeast(String key, int count, Duration within) {
        org.awaitility.Awaitility.await().atMost(within).pollInterval(Duration.ofMillis(2))
                .until(() -> holding(key).size() >= count);
    }

    /** Waits until no node has {@code key}; fails naming the nodes that still have it. */
    void awaitGone(String key, Duration within, String what) {
        org.awaitility.Awaitility.await().atMost(within).pollInterval(Duration.ofMillis(10))
                .untilAsserted(() -> org.assertj.core.api.Assertions.assertThat(holding(key))
                        .as("%s: nodes still holding %s", what, key).isEmpty());
    }

    /** The nodes (host:port) that still have {@code key}. */
    List<String> holding(String key) {
        List<String> holding = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            if (connections.get(i).sync().exists(key) == 1) {
                holding.add(servers.get(i).address());
            }
        }
        return holding;
    }

    @Override
    public void close() {
        connections.forEach(StatefulRedisConnection::close);
        client.shutdown();
    }
}
