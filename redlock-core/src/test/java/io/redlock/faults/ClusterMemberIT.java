package io.redlock.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.RedlockConfig;
import io.redlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Three quorum members, each a Redis Cluster of three masters: the lock holds on every shard, a shard lost in one
 * member loses no lock, and a slot moved while in use loses no lock and leaves no key.
 */
class ClusterMemberIT {

    private static final int SHARDS = 3;
    private static final Duration PATIENCE = RowBench.PATIENCE;

    @Test
    void mutualExclusionAndFencingHoldOnEveryShardOfThreeClusterMembers() throws Exception {
        try (ClusterMembers members = ClusterMembers.start(3, SHARDS)) {
            List<Workload> workloads = new ArrayList<>();
            List<RedisServer> storages = new ArrayList<>();
            List<String> resources = new ArrayList<>();
            try {
                for (int shard = 0; shard < SHARDS; shard++) {
                    String resource = members.resourceOnShard("account-", shard);
                    resources.add(resource);
                    RedisServer storage = RedisServer.launch();
                    storages.add(storage);
                    workloads.add(new Workload(members.uris(), storage.uri(), RowBench.TTL, Workload.WORKERS,
                            "shard" + shard + "-", true).on(resource).start());
                }
                for (Workload workload : workloads) {
                    workload.awaitAcquisitions(12, PATIENCE);
                }
                for (Workload workload : workloads) {
                    workload.stop();
                }
                for (int shard = 0; shard < SHARDS; shard++) {
                    Row.of("shard " + shard, "none").atLeast(12).check(new Measured(workloads.get(shard), List.of(),
                            List.of()));
                }
            } finally {
                workloads.forEach(Workload::close);
                storages.forEach(RedisServer::close);
            }
            for (int shard = 0; shard < SHARDS; shard++) {
                String resource = resources.get(shard);
                for (var cluster : members.clusters) {
                    RedisServer owner = cluster.nodes().node(shard);
                    assertThat(owner.pttl("{" + resource + "}" + RedlockConfig.FENCE_SUFFIX))
                            .as("the counter of %s is on shard %d, in the lock key's slot, expiring", resource, shard)
                            .isPositive();
                }
                int owner = shard;
                await().atMost(PATIENCE).until(() -> members.clusters.stream()
                        .allMatch(cluster -> cluster.nodes().node(owner).get(resource) == null));
            }
            everyKeyExpires(members);
        }
    }

    /** Every key left on every master has a TTL. */
    static void everyKeyExpires(ClusterMembers members) {
        for (RedisServer server : members.servers()) {
            for (String key : server.redis(r -> r.keys("*"))) {
                assertThat(server.pttl(key)).as("TTL of %s on %s", key, server).isNotEqualTo(-1L);
            }
        }
    }
}
