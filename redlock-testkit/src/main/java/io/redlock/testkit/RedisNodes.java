package io.redlock.testkit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

/**
 * N independent {@link RedisServer}s (no replication between them, SPEC R1), started in parallel and closed together.
 */
public final class RedisNodes implements AutoCloseable, Iterable<RedisServer> {

    /** The spec's example size. */
    public static final int DEFAULT_SIZE = 5;

    private final List<RedisServer> servers;

    private RedisNodes(List<RedisServer> servers) {
        this.servers = List.copyOf(servers);
    }

    /** Starts {@value #DEFAULT_SIZE} servers. */
    public static RedisNodes start() {
        return start(DEFAULT_SIZE);
    }

    /** Starts {@code count} servers in parallel on free ports, each with the same extra arguments. */
    public static RedisNodes start(int count, String... extraArgs) {
        return start(count, 0, extraArgs);
    }

    /**
     * Starts {@code count} servers in parallel, on ports {@code portBase}, {@code portBase + 1}, … (or free ports if
     * {@code portBase} is 0), each with the same extra arguments.
     */
    public static RedisNodes start(int count, int portBase, String... extraArgs) {
        return start(count, builder -> {
            builder.args(extraArgs);
            return builder;
        }, portBase);
    }

    /** Starts {@code count} servers in parallel, each from a builder {@code customize} may change (free ports). */
    public static RedisNodes start(int count, UnaryOperator<RedisServerBuilder> customize) {
        return start(count, customize, 0);
    }

    private static RedisNodes start(int count, UnaryOperator<RedisServerBuilder> customize, int portBase) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be >= 1, was " + count);
        }
        List<RedisServer> servers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            RedisServerBuilder builder = customize.apply(RedisServer.builder());
            if (portBase > 0) {
                builder.port(portBase + i);
            }
            servers.add(builder.build());
        }
        ExecutorService starter = Executors.newFixedThreadPool(count, r -> {
            Thread t = new Thread(r, "redis-nodes-start");
            t.setDaemon(true);
            return t;
        });
        try {
            CompletableFuture.allOf(servers.stream()
                    .map(s -> CompletableFuture.runAsync(s::start, starter))
                    .toArray(CompletableFuture[]::new)).join();
        } catch (RuntimeException e) {
            servers.forEach(RedisServer::close);
            throw e;
        } finally {
            starter.shutdownNow();
        }
        return new RedisNodes(servers);
    }

    /** The server at {@code index}, from 0. */
    public RedisServer node(int index) {
        return servers.get(index);
    }

    public int size() {
        return servers.size();
    }

    public List<RedisServer> servers() {
        return servers;
    }

    /** Every server's URI, in node order. */
    public List<String> uris() {
        return servers.stream().map(RedisServer::uri).toList();
    }

    /** Every server's URI as an array, for {@code Redlock.builder().nodes(...)}. */
    public String[] uriArray() {
        return uris().toArray(String[]::new);
    }

    /**
     * The longest time-to-live (PTTL, ms) that a majority of the nodes still give {@code key}: of the nodes' PTTLs,
     * largest first, the one at the majority's count (-2 where a node lacks the key, -1 where it has no TTL).
     */
    public long pttlOnAMajority(String key) {
        List<Long> pttls = servers.stream().map(server -> server.pttl(key)).sorted(Comparator.reverseOrder()).toList();
        return pttls.get(servers.size() / 2);
    }

    @Override
    public Iterator<RedisServer> iterator() {
        return servers.iterator();
    }

    /** Kills every server and deletes its directory. */
    @Override
    public void close() {
        servers.parallelStream().forEach(RedisServer::close);
    }

    @Override
    public String toString() {
        return "RedisNodes" + servers;
    }
}
