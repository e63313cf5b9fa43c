package io.redlock.cli;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.RedisServerBuilder;
import io.redlock.testkit.TcpProxy;
import java.util.ArrayList;
import java.util.List;

/**
 * What a randomized fault run works on: five lock nodes whose clocks can be shifted, a proxy in front of each (every
 * client, in this JVM or a {@code redlock run} process, connects through them, so the proxies' delays and partitions
 * reach all of them), and a storage node that no fault touches.
 */
final class NemesisNodes implements AutoCloseable {

    static final int NODES = 5;

    final RedisNodes nodes;
    final List<TcpProxy> proxies = new ArrayList<>();
    final RedisServer storage;
    private final RedisClient storageClient;

    NemesisNodes() {
        nodes = RedisNodes.start(NODES, RedisServerBuilder::clockShift);
        for (RedisServer node : nodes) {
            proxies.add(TcpProxy.start(node.host(), node.port()));
        }
        storage = RedisServer.launch();
        storageClient = RedisClient.create(storage.uri());
    }

    /** The URIs the clients use: the proxies'. */
    List<String> uris() {
        return proxies.stream().map(TcpProxy::uri).toList();
    }

    /** A new connection to the storage node, for one client. */
    StatefulRedisConnection<String, String> storageConnection() {
        return storageClient.connect();
    }

    @Override
    public void close() {
        storageClient.shutdown();
        storage.close();
        proxies.forEach(TcpProxy::close);
        nodes.close();
    }
}
