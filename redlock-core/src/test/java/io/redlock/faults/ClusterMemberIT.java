package io.redlock.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.cluster.SlotHash;
import io.redlock.Lease;
import io.redlock.MultiLease;
import io.redlock.Redlock;
import io.redlock.RedlockConfigException;
import io.redlock.RedlockSemaphore;
import io.redlock.internal.protocol.Keys;
import io.redlock.testkit.RedisCluster;
import io.redlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Three quorum members, each a Redis Cluster of three masters: the lock holds on every shard, a lock of several
 * resources needs them in one slot, and a slot moved while in use loses no lock and leaves no key. A shard killed in one member is row F18 of the fault matrix
 * ({@link ClusterFaultRows}).
 */
class ClusterMemberIT {

    private static final int SHARDS = 3;
    private static final Duration PATIENCE = RowBench.PATIENCE;
    /** The single-client checks count on every member answering: a node timeout they answer within when loaded. */
    private static final Duration NODE_TIMEOUT = Duration.ofSeconds(2);
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
                    // critical sections must not overlap within validity: one past a paused worker's validity is allowed
                    Row.of("shard " + shard, "none").atLeast(12).check(Measured.of(workloads.get(shard)));
                }
            } finally {
                workloads.forEach(Workload::close);
                storages.forEach(RedisServer::close);
            }
            for (int shard = 0; shard < SHARDS; shard++) {
                String resource = resources.get(shard);
                for (var cluster : members.clusters) {
                    RedisServer owner = cluster.nodes().node(shard);
                    assertThat(owner.pttl("{" + resource + "}" + Keys.FENCE_SUFFIX))
                            .as("the counter of %s is on shard %d, in the lock key's slot, expiring", resource, shard)
                            .isPositive();
                }
                int owner = shard;
                await().atMost(PATIENCE).until(() -> members.clusters.stream()
                        .allMatch(cluster -> cluster.nodes().node(owner).get(resource) == null));
            }
            locksOfSeveralResourcesNeedOneSlot(members);
            releasesAreAnnouncedWithNobodySubscribedToTheShard(members);
            readersAndPermitsLiveInTheLockKeysSlot(members);
            everyKeyExpires(members);
        }
    }

    /** A lock of several resources on cluster members: with one hash tag it works; keys in two slots are refused. */
    private static void locksOfSeveralResourcesNeedOneSlot(ClusterMembers members) {
        List<String> tagged = List.of("{order:7}:items", "{order:7}:payment");
        List<String> apart = List.of("order:7:items", "order:7:payment");
        assertThat(SlotHash.getSlot(apart.get(0))).isNotEqualTo(SlotHash.getSlot(apart.get(1)));
        try (Redlock redlock = Redlock.builder().nodes(members.uris()).nodeTimeout(NODE_TIMEOUT).build()) {
            MultiLease together = redlock.tryAcquireAll(tagged, Duration.ofSeconds(5)).orElseThrow();
            assertThat(redlock.tryAcquire(tagged.get(1), Duration.ofSeconds(5))).as("a plain lock of one").isEmpty();
            together.release();
            assertThatThrownBy(() -> redlock.tryAcquireAll(apart, Duration.ofSeconds(5)))
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining("hash slot");
        }
    }

    /**
     * A release on a cluster member is published though no client of the shard subscribes: a cluster delivers it to
     * the subscribers of every node, which the shard's own count does not see.
     */
    private static void releasesAreAnnouncedWithNobodySubscribedToTheShard(ClusterMembers members) {
        String resource = members.resourceOnShard("announced-", 0);
        List<RedisServer> owners = members.clusters.stream().map(cluster -> cluster.nodes().node(0)).toList();
        owners.forEach(RedisServer::resetStats);
        try (Redlock redlock = Redlock.builder().nodes(members.uris()).nodeTimeout(NODE_TIMEOUT).build()) {
            redlock.tryAcquire(resource, Duration.ofSeconds(5)).orElseThrow().release();
        }
        await().atMost(PATIENCE).untilAsserted(() -> {
            for (RedisServer owner : owners) {
                assertThat(owner.calls("publish")).as("announcements on %s", owner).isOne();
                assertThat(owner.calls("pubsub|numsub")).as("listener checks on %s", owner).isZero();
            }
        });
    }

    /** Readers and a semaphore's permits on cluster members: their sets share the lock key's slot, so scripts run. */
    private static void readersAndPermitsLiveInTheLockKeysSlot(ClusterMembers members) {
        Duration ttl = Duration.ofSeconds(5);
        try (Redlock redlock = Redlock.builder().nodes(members.uris()).nodeTimeout(NODE_TIMEOUT).build()) {
            RedlockSemaphore semaphore = redlock.semaphore("exports", 2);
            Lease first = semaphore.tryAcquire(ttl).orElseThrow();
            Lease second = semaphore.tryAcquire(ttl).orElseThrow();
            assertThat(semaphore.tryAcquire(ttl)).isEmpty();
            assertThat(semaphore.availablePermits()).isZero();
            assertThat(first.extend(ttl)).isTrue();
            first.release();
            second.release();
            Lease reader = redlock.readWriteLock("catalog").tryAcquireRead(ttl).orElseThrow();
            assertThat(redlock.tryAcquire("catalog", ttl)).isEmpty();
            reader.release();
            assertThat(semaphore.availablePermits()).isEqualTo(2);
        }
    }

    @Test
    void aSlotMovedWhileItsLocksAreInUseLosesNoLockAndLeavesNoKey() throws Exception {
        String tag = "moving";
        int slot = SlotHash.getSlot(tag);
        try (ClusterMembers members = ClusterMembers.start(3, SHARDS); RedisServer storage = RedisServer.launch();
                KeptLeases kept = KeptLeases.of(members, List.of("{" + tag + "}:held"));
                Workload workload = new Workload(members.uris(), storage.uri(), RowBench.TTL, Workload.WORKERS, "w-",
                        true).on("{" + tag + "}:account")) {
            workload.start().awaitAcquisitions(4, PATIENCE);
            RedisCluster moved = members.clusters.get(0);
            int from = moved.formedOwnerOf(slot);
            int to = (from + 1) % SHARDS;
            assertThat(moved.migrateSlot(slot, from, to, Duration.ofMillis(300), 20))
                    .as("keys moved while in use: the held lock, counters, maybe the workers' lock").isGreaterThanOrEqualTo(3);
            workload.awaitAcquisitions(8, PATIENCE);
            kept.assertNoneLost();
            workload.stop();
            Row.of("slot moved", "a slot migrated under load").atLeast(12).check(Measured.of(workload));
            kept.release();
            await().atMost(PATIENCE).until(() -> kept.goneFrom(members));
            long left = moved.nodes().node(from).redis(r -> r.clusterCountKeysInSlot(slot));
            assertThat(left)
                    .as("keys left in slot %d on the master it left", slot).isZero();
            // the workers' last release may have reached this member after the majority, or not at all (its key then
            // expires within the workers' TTL)
            await().atMost(PATIENCE).untilAsserted(() -> {
                List<String> stayed = moved.nodes().node(to).redis(r -> r.clusterGetKeysInSlot(slot, 100));
                assertThat(stayed).as("what stays in the moved slot: the fencing counters")
                        .allMatch(k -> k.endsWith(Keys.FENCE_SUFFIX));
            });
            everyKeyExpires(members);
        }
    }

    /** Every key left on every master of a working member has a TTL (a failed cluster answers no key command). */
    static void everyKeyExpires(ClusterMembers members) {
        for (RedisServer server : members.servers()) {
            if (!server.isRunning() || !server.redis(r -> r.clusterInfo()).contains("cluster_state:ok")) {
                continue;
            }
            for (String key : server.redis(r -> r.keys("*"))) {
                assertThat(server.pttl(key)).as("TTL of %s on %s", key, server).isNotEqualTo(-1L);
            }
        }
    }
}
