package io.redlock.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A Redis Cluster of 3 masters on loopback: formed, every slot covered, usable by a cluster client, gone on close. */
class RedisClusterIT {

    @Test
    void threeMastersCoverEverySlotAndServeKeysOfEverySlotRange() {
        List<Long> pids;
        try (RedisCluster cluster = RedisCluster.start(3)) {
            pids = cluster.nodes().servers().stream().map(RedisServer::pid).toList();
            String info = cluster.nodes().node(0).redis(r -> r.clusterInfo());
            assertThat(info).contains("cluster_state:ok", "cluster_slots_assigned:" + RedisCluster.SLOTS,
                    "cluster_known_nodes:3", "cluster_size:3");

            RedisClusterClient client = RedisClusterClient.create(RedisURI.create(cluster.seedUris().get(0)));
            try (StatefulRedisClusterConnection<String, String> connection = client.connect()) {
                RedisAdvancedClusterCommands<String, String> redis = connection.sync();
                Set<String> owners = new HashSet<>();
                for (int i = 0; i < 30; i++) {
                    String key = "key:" + i;
                    redis.set(key, Integer.toString(i));
                    assertThat(redis.get(key)).isEqualTo(Integer.toString(i));
                    owners.add(connection.getPartitions().getPartitionBySlot(
                            io.lettuce.core.cluster.SlotHash.getSlot(key)).getNodeId());
                }
                assertThat(owners).as("keys landed on every master").hasSize(3);
            } finally {
                client.shutdown();
            }
        }
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("pid %d", pid).isFalse();
        }
    }
}
