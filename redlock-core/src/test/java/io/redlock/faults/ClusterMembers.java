package io.redlock.faults;

import io.lettuce.core.cluster.SlotHash;
import io.redlock.RedlockConfig;
import io.redlock.testkit.RedisCluster;
import io.redlock.testkit.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/**
 * Quorum members that are Redis Clusters, for the tests: {@code members} clusters of {@code shards} masters each,
 * started at once, named as the configuration names them, with resources picked by the shard they land on.
 */
final class ClusterMembers implements AutoCloseable {

    final List<RedisCluster> clusters;

    private ClusterMembers(List<RedisCluster> clusters) {
        this.clusters = clusters;
    }

    static ClusterMembers start(int members, int shards) {
        List<CompletableFuture<RedisCluster>> starting = IntStream.range(0, members)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> RedisCluster.start(shards))).toList();
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
        return new ClusterMembers(List.copyOf(started));
    }

    /** The node URI strings of the members: {@code cluster:<seed>|<seed>…}. */
    List<String> uris() {
        return clusters.stream().map(c -> RedlockConfig.CLUSTER_PREFIX
                + String.join(RedlockConfig.CLUSTER_SEED_SEPARATOR, c.seedUris())).toList();
    }

    /** {@code prefix} followed by the first number that makes a key on shard {@code shard} (as the clusters formed). */
    String resourceOnShard(String prefix, int shard) {
        RedisCluster first = clusters.get(0);
        for (int i = 0; i < 100_000; i++) {
            String resource = prefix + i;
            if (first.formedOwnerOf(SlotHash.getSlot(resource)) == shard) {
                return resource;
            }
        }
        throw new IllegalStateException("no resource " + prefix + "N lands on shard " + shard);
    }

    /** Every master of every member. */
    List<RedisServer> servers() {
        return clusters.stream().flatMap(c -> c.nodes().servers().stream()).toList();
    }

    @Override
    public void close() {
        clusters.forEach(RedisCluster::close);
    }
}
