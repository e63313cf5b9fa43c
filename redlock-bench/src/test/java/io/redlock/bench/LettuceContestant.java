package io.redlock.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The physical reference: what Redlock costs on the wire and nothing else. {@code SET key value NX PX 10000} to every
 * node at once, wait for a majority of OK, then the standard compare-and-delete script by EVALSHA to every node, wait
 * for a majority. One Lettuce client, one connection per node.
 */
final class LettuceContestant implements Contestant {

    static final String RELEASE_SCRIPT =
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

    private static final SetArgs NX_PX = SetArgs.Builder.nx().px(10_000);

    private final RedisClient client = RedisClient.create();
    private final List<StatefulRedisConnection<String, String>> connections;
    private final List<RedisAsyncCommands<String, String>> nodes;
    private final String releaseSha;
    private final String valuePrefix;
    private final AtomicLong values = new AtomicLong();

    LettuceContestant(List<String> uris) {
        connections = uris.stream().map(uri -> client.connect(RedisURI.create(uri))).toList();
        nodes = connections.stream().map(StatefulRedisConnection::async).toList();
        releaseSha = connections.stream().map(c -> c.sync().scriptLoad(RELEASE_SCRIPT)).toList().get(0);
        byte[] random = new byte[8];
        new SecureRandom().nextBytes(random);
        valuePrefix = HexFormat.of().formatHex(random) + ":";
    }

    @Override
    public String name() {
        return "bare Lettuce";
    }

    @Override
    public String id() {
        return "lettuce";
    }

    @Override
    public int nodes() {
        return nodes.size();
    }

    @Override
    public CompletionStage<Void> pair(String resource, int slot) {
        String value = valuePrefix + values.incrementAndGet();
        String[] keys = {resource};
        return Majority.of(nodes.stream().map(node -> node.set(resource, value, NX_PX)).toList(), "OK"::equals)
                .thenCompose(acquired -> Majority.of(nodes.stream()
                        .map(node -> node.<Long>evalsha(releaseSha, ScriptOutputType.INTEGER, keys, value))
                        .toList(), deleted -> deleted == 1L));
    }

    @Override
    public void close() {
        connections.forEach(StatefulRedisConnection::close);
        client.shutdown();
    }
}
