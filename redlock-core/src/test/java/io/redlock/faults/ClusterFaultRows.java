package io.redlock.faults;

import static io.redlock.faults.RowBench.PATIENCE;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.cluster.SlotHash;
import io.redlock.testkit.RedisCluster;
import java.util.List;
import java.util.stream.IntStream;

/** Row F18: quorum members that are Redis Clusters, one of which loses a shard. */
final class ClusterFaultRows {

    static final int MEMBERS = 3;
    static final int SHARDS = 3;
    static final int KEPT = 30;

    private ClusterFaultRows() {
    }

    /**
     * F18. Three members of three shards each; the workers lock {@link Workload#RESOURCE}, and 30 more leases spread
     * over every shard are kept alive by the watchdog. The master holding the workers' slot in the first member is
     * killed: the member loses its vote for that slot, and for every slot once its cluster marks itself failed.
     */
    static Measured shardOfOneMemberKilled(RowBench b) throws Exception {
        ClusterMembers members = b.closeLater(ClusterMembers.start(MEMBERS, SHARDS));
        KeptLeases kept = b.closeLater(KeptLeases.of(members,
                IntStream.range(0, KEPT).mapToObj(i -> "kept-" + i).toList()));
        Workload w = b.workload(members.uris());
        w.awaitAcquisitions(4, PATIENCE);
        RedisCluster hit = members.clusters.get(0);
        int shard = hit.formedOwnerOf(SlotHash.getSlot(Workload.RESOURCE));
        hit.nodes().node(shard).kill();
        int other = (shard + 1) % SHARDS;
        await().atMost(PATIENCE).until(() -> hit.nodes().node(other).redis(r -> r.clusterInfo())
                .contains("cluster_state:fail"));
        w.awaitAcquisitions(8, PATIENCE);
        b.asserted(FaultRow.Also.PROGRESS_UNDER_FAULT);
        kept.assertNoneLost();
        b.asserted(FaultRow.Also.KEPT_LEASES_SURVIVE);
        w.stop();
        kept.release();
        await().atMost(PATIENCE).until(() -> kept.goneFrom(members));
        ClusterMemberIT.everyKeyExpires(members);
        return new Measured(w, List.of(), List.of());
    }
}
