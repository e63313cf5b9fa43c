package io.redlock.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A Redis Cluster of masters on loopback, without replicas and without Docker: {@code cluster-enabled} servers on free
 * ports whose cluster bus ports (10,000 higher) are free too, the 16,384 slots split evenly among them, introduced to each other with {@code CLUSTER MEET}, and waited for
 * (bounded) until every node reports {@code cluster_state:ok} and knows every other. {@link #close()} kills them and
 * deletes their directories.
 */
public final class RedisCluster implements AutoCloseable {

    /** The slots of every Redis Cluster. */
    public static final int SLOTS = 16_384;
    /** How long the nodes may take to agree on the cluster. */
    private static final Duration FORMING = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration MIGRATE_TIMEOUT = Duration.ofSeconds(5);
    /** A node's cluster bus port is its port plus this. */
    private static final int BUS_OFFSET = 10_000;
    private static final int MAX_PORT = 65_535 - BUS_OFFSET;
    /** How many free ports {@link #clusterPort()} looks at for one whose bus port is free too. */
    private static final int PORT_PICKS = 1_000;

    private final RedisNodes nodes;

    private RedisCluster(RedisNodes nodes) {
        this.nodes = nodes;
    }

    /** Starts {@code masters} cluster-enabled servers and forms one cluster of them. */
    public static RedisCluster start(int masters) {
        if (masters < 1) {
            throw new IllegalArgumentException("masters must be >= 1, was " + masters);
        }
        // each node's port comes from clusterPort(), and a port taken before the node binds it (another test's server,
        // a connection's ephemeral port: picking and binding are not atomic) makes the node try another one
        RedisNodes nodes = RedisNodes.start(masters, builder -> builder.freePorts(RedisCluster::clusterPort)
                .args("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", "--cluster-node-timeout",
                        "2000"));
        try {
            for (int i = 0; i < masters; i++) {
                int[] slots = IntStream.range(i * SLOTS / masters, (i + 1) * SLOTS / masters).toArray();
                nodes.node(i).redis(r -> r.clusterAddSlots(slots));
            }
            RedisServer first = nodes.node(0);
            for (int i = 1; i < masters; i++) {
                RedisServer other = nodes.node(i);
                first.redis(r -> r.clusterMeet(other.host(), other.port()));
            }
            awaitFormed(nodes, masters);
        } catch (RuntimeException e) {
            nodes.close();
            throw e;
        }
        return new RedisCluster(nodes);
    }

    /**
     * A free port whose cluster bus port (+ 10,000) is free too, so at most 55,535 (Redis 7's --cluster-port would
     * lift that, but the embedded fallback binary is Redis 6.2).
     */
    private static int clusterPort() {
        for (int attempt = 0; attempt < PORT_PICKS; attempt++) {
            int port = ServerProbes.freePort();
            if (port <= MAX_PORT && ServerProbes.isFree(port + BUS_OFFSET)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port with a free cluster bus port in " + PORT_PICKS + " picks");
    }

    private static void awaitFormed(RedisNodes nodes, int masters) {
        long deadline = System.nanoTime() + FORMING.toNanos();
        List<String> states = List.of();
        while (System.nanoTime() - deadline < 0) {
            states = new ArrayList<>();
            for (RedisServer node : nodes) {
                states.add(node.redis(r -> r.clusterInfo()));
            }
            if (states.stream().allMatch(info -> info.contains("cluster_state:ok")
                    && info.contains("cluster_known_nodes:" + masters + "\r"))) {
                return;
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the cluster formed", e);
            }
        }
        throw new IllegalStateException("the cluster of " + masters + " masters did not form within " + FORMING
                + ": " + states);
    }

    /** The masters, in the order their slot ranges go: node 0 has the first third of the slots (of 3). */
    public RedisNodes nodes() {
        return nodes;
    }

    /** The index (into {@link #nodes()}) of the master that was given {@code slot} when the cluster formed. */
    public int formedOwnerOf(int slot) {
        return slot * nodes.size() / SLOTS;
    }

    /**
     * Moves {@code slot} from master {@code from} to master {@code to} as {@code redis-cli --cluster reshard} does:
     * IMPORTING on the target, MIGRATING on the source, its keys moved with MIGRATE one at a time (pausing
     * {@code pause} after each, so clients meet the slot half-moved: ASK redirects and TRYAGAIN), then the slot
     * assigned to the target on every master. Bounded: at most {@code maxKeys} keys are moved.
     *
     * @return how many keys were moved
     */
    public int migrateSlot(int slot, int from, int to, Duration pause, int maxKeys) {
        RedisServer source = nodes.node(from);
        RedisServer target = nodes.node(to);
        String sourceId = source.redis(r -> r.clusterMyId());
        String targetId = target.redis(r -> r.clusterMyId());
        target.redis(r -> r.clusterSetSlotImporting(slot, sourceId));
        source.redis(r -> r.clusterSetSlotMigrating(slot, targetId));
        int moved = 0;
        for (; moved < maxKeys; moved++) {
            List<String> keys = source.redis(r -> r.clusterGetKeysInSlot(slot, 1));
            if (keys.isEmpty()) {
                break;
            }
            source.redis(r -> r.migrate(target.host(), target.port(), 0, MIGRATE_TIMEOUT.toMillis(),
                    io.lettuce.core.MigrateArgs.Builder.keys(keys)));
            sleep(pause);
        }
        target.redis(r -> r.clusterSetSlotNode(slot, targetId));
        source.redis(r -> r.clusterSetSlotNode(slot, targetId));
        for (RedisServer other : nodes) {
            if (other != source && other != target) {
                other.redis(r -> r.clusterSetSlotNode(slot, targetId));
            }
        }
        return moved;
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(pause.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while migrating a slot", e);
        }
    }

    /** Every master's URI, as seeds for a cluster client. */
    public List<String> seedUris() {
        return nodes.uris();
    }

    /** Kills every master and deletes its directory. */
    @Override
    public void close() {
        nodes.close();
    }
}
