package io.redlock.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/**
 * Several Redis Clusters of the same shape, formed at once (each as {@link RedisCluster#start(int)} does); if one
 * fails to form, the others are closed too. {@link #close()} closes them all.
 */
public final class RedisClusters implements AutoCloseable {

    private final List<RedisCluster> clusters;

    private RedisClusters(List<RedisCluster> clusters) {
        this.clusters = List.copyOf(clusters);
    }

    /** Starts {@code count} clusters of {@code masters} masters each. */
    public static RedisClusters start(int count, int masters) {
        List<CompletableFuture<RedisCluster>> starting = IntStream.range(0, count)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> RedisCluster.start(masters))).toList();
        List<RedisCluster> started = new ArrayList<>();
        RuntimeException failure = null;
        for (CompletableFuture<RedisCluster> cluster : starting) {
            try {
                started.add(cluster.join());
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        if (failure != null) {
            started.forEach(RedisCluster::close);
            throw failure;
        }
        return new RedisClusters(started);
    }

    /** The clusters, in the order they were asked for. */
    public List<RedisCluster> clusters() {
        return clusters;
    }

    public RedisCluster get(int index) {
        return clusters.get(index);
    }

    /** Every master: cluster by cluster, each in its slot order (so index % masters is the shard). */
    public List<RedisServer> servers() {
        return clusters.stream().flatMap(c -> c.nodes().servers().stream()).toList();
    }

    @Override
    public void close() {
        clusters.forEach(RedisCluster::close);
    }
}
