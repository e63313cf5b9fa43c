package io.redlock.faults;

import io.lettuce.core.cluster.SlotHash;
import io.redlock.RedlockConfig;
import io.redlock.testkit.RedisCluster;
import io.redlock.testkit.RedisClusters;
import io.redlock.testkit.RedisServer;
import java.util.List;

/**
 * Quorum members that are Redis Clusters, for the tests: {@code members} clusters of {@code shards} masters each,
 * named as the configuration names them, with resources picked by the shard they land on.
 */
final class ClusterMembers implements AutoCloseable {

    final List<RedisCluster> clusters;
    private final RedisClusters started;

    private ClusterMembers(RedisClusters started) {
        this.started = started;
        this.clusters = started.clusters();
    }

    static ClusterMembers start(int members, int shards) {
        return new ClusterMembers(RedisClusters.start(members, shards));
    }

    /** The node URI strings of the members: {@code cluster:<seed>|<seed>…}. */
    List<String> uris() {
        return clusters.stream().map(c -> RedlockConfig.clusterMember(c.seedUris())).toList();
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
        return started.servers();
    }

    @Override
    public void close() {
        started.close();
    }
}
