package io.redlock.internal.node;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.DefaultEventLoopGroupProvider;
import io.lettuce.core.resource.Delay;
import io.netty.util.concurrent.EventExecutor;
import io.redlock.NodeFailure;
import io.redlock.RedlockConfig;
import io.redlock.Ticker;
import io.redlock.internal.time.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nodes of one configuration: the Lettuce client and its threads, one {@link NodeClient} per node, the per-node
 * timeout, the scheduler, and the one fan-out every operation uses — {@link #send(Command)} puts a command on every
 * node at once, then {@link #quorum}, {@link #all} or {@link #required} tally the replies as a {@link Round}, or
 * {@link #gather} waits for every node's report.
 */
public final class NodeSet implements AutoCloseable {

    /** One node's part of a fan-out: the command for the node at {@code index} (in configuration order). */
    @FunctionalInterface
    public interface Command<R> {
        CompletionStage<R> send(int index, NodeClient node);
    }

    private static final Logger log = LoggerFactory.getLogger(NodeSet.class);
    private static final Duration MIN_CONNECT_TIMEOUT = Duration.ofSeconds(1);
    /** How long {@link #close()} waits for each of the connections, Lettuce's threads and the scheduler to end. */
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);
    /** How often a cluster member's slot map is read again even when no redirect or reconnect asked for it. */
    private static final Duration TOPOLOGY_REFRESH = Duration.ofSeconds(30);

    private final Ticker ticker;
    private final long nodeTimeoutNanos;
    private final Redaction redaction;
    private final ClientResources ownedResources;
    /** The one I/O thread of owned resources (Lettuce's builder would make at least two); null with a user's. */
    private final DefaultEventLoopGroupProvider ownedIoLoop;
    private final OwnedThreads ownedThreads = new OwnedThreads();
    private final RedisClient client;
    /** One client per member that is a Redis Cluster (a cluster client keeps one cluster's topology). */
    private final List<RedisClusterClient> clusterClients = new ArrayList<>();
    private final List<NodeClient> nodes;
    private final Scheduler scheduler;
    private final Consumer<NodeFailure> failures;
    private final Flusher flusher = new Flusher();
    /** How long a connection may take to open, and the warm-up to be answered. */
    private final Duration connectTimeout;

    /**
     * Connects to every node of {@code config}, which run the scripts of {@code batch}, waiting (bounded) until each
     * connection has settled.
     */
    public NodeSet(RedlockConfig config, ScriptBatch batch, Scheduler scheduler, Consumer<NodeFailure> failures) {
        this.ticker = config.ticker();
        this.nodeTimeoutNanos = config.nodeTimeout().toNanos();
        this.redaction = Redaction.of(allUris(config));
        this.scheduler = scheduler;
        this.failures = failures;
        Duration connectTimeout = max(MIN_CONNECT_TIMEOUT, config.nodeTimeout().multipliedBy(10));
        this.ownedIoLoop = config.clientResources().isPresent() ? null
                : new DefaultEventLoopGroupProvider(1, ownedThreads);
        this.ownedResources = config.clientResources().isPresent() ? null
                : DefaultClientResources.builder().threadFactoryProvider(ownedThreads)
                        .eventLoopGroupProvider(ownedIoLoop)
                        .computationThreadPoolSize(1)
                        .reconnectDelay(Delay.exponential(Duration.ofMillis(10), Duration.ofSeconds(1), 2,
                                TimeUnit.MILLISECONDS))
                        .build();
        ClientResources resources = config.clientResources().orElse(ownedResources);
        this.client = new AsyncOnlyRedisClient(resources);
        client.setOptions(options(ClientOptions.builder(), connectTimeout).build());
        List<NodeClient> list = new ArrayList<>();
        for (int i = 0; i < config.nodes().size(); i++) {
            List<RedisURI> seeds = config.clusterSeeds(i);
            NodeClient node;
            if (seeds.isEmpty()) {
                RedisURI uri = NodeClient.withTimeout(config.nodes().get(i), connectTimeout);
                node = new NodeClient(Redaction.nodeName(uri), () -> client.connectAsync(ExactUtf8Codec.INSTANCE, uri),
                        false, ticker, redaction, flusher, batch);
            } else {
                RedisClusterClient cluster = clusterClient(resources, seeds, connectTimeout);
                clusterClients.add(cluster);
                // the slot map is read first (and again on every reconnect): an asynchronous connect needs it
                node = new NodeClient(Redaction.clusterName(seeds), () -> cluster.refreshPartitionsAsync()
                        .thenCompose(loaded -> cluster.connectAsync(ExactUtf8Codec.INSTANCE)), true, ticker, redaction,
                        flusher, batch);
            }
            list.add(node);
        }
        this.nodes = List.copyOf(list);
        this.connectTimeout = connectTimeout;
        connectAll(connectTimeout);
    }

    /**
     * Runs {@code script} once on every connected node and waits for the replies, at most as long as a connection may
     * take: what the first lock operation of a fresh process would otherwise pay inside its round (the first encode,
     * the classes of the reply path, a script not loaded yet), paid before any round's clock starts. Nodes that do
     * not answer in time are left as they are; nothing is reported for them here.
     */
    public void warmUp(Script script, String[] keys, String[] args) {
        List<CompletableFuture<Long>> replies = send((i, node) -> node.eval(script, keys, args));
        try {
            CompletableFuture.allOf(replies.stream().map(reply -> reply.exceptionally(failed -> null))
                    .toArray(CompletableFuture[]::new)).get(connectTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.debug("not every node answered the warm-up within {}", connectTimeout);
        }
    }

    /** The options of every connection: to a server and to a cluster alike. */
    private static <B extends ClientOptions.Builder> B options(B builder, Duration connectTimeout) {
        builder.autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .protocolVersion(ProtocolVersion.RESP2)
                .socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).keepAlive(true).build())
                // a safety net for commands a stalled node never answers; rounds stop waiting much earlier
                .timeoutOptions(TimeoutOptions.enabled(connectTimeout));
        return builder;
    }

    /**
     * A cluster member's client: Lettuce follows MOVED and ASK and refreshes the slot map on every redirect and
     * reconnect, and every {@link #TOPOLOGY_REFRESH} in case nothing triggered it.
     */
    private static RedisClusterClient clusterClient(ClientResources resources, List<RedisURI> seeds,
            Duration connectTimeout) {
        RedisClusterClient cluster = RedisClusterClient.create(resources,
                seeds.stream().map(seed -> NodeClient.withTimeout(seed, connectTimeout)).toList());
        cluster.setOptions(options(ClusterClientOptions.builder(), connectTimeout)
                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                        .enableAllAdaptiveRefreshTriggers()
                        .enablePeriodicRefresh(TOPOLOGY_REFRESH)
                        .build())
                .build());
        return cluster;
    }

    /** Every URI of the configuration, cluster seeds included: the passwords to keep out of messages. */
    private static List<RedisURI> allUris(RedlockConfig config) {
        List<RedisURI> all = new ArrayList<>(config.nodes());
        for (int i = 0; i < config.nodes().size(); i++) {
            all.addAll(config.clusterSeeds(i));
        }
        return all;
    }

    private void connectAll(Duration connectTimeout) {
        CompletableFuture<?>[] attempts = nodes.stream().map(NodeClient::connect).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(attempts).get(connectTimeout.toMillis() + 500, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.debug("not every node connected within {}", connectTimeout);
        }
    }

    /** The fan-out: {@code command} on every node at once, in node order; one reply stage per node. */
    public <R> List<CompletableFuture<R>> send(Command<R> command) {
        List<CompletableFuture<R>> replies = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            replies.add(command.send(i, nodes.get(i)).toCompletableFuture());
        }
        return replies;
    }

    /** Tallies replies until a majority granted or cannot any more, or the per-node timeout (SPEC R3). */
    public <R> CompletableFuture<RoundResult<R>> quorum(List<? extends CompletionStage<R>> replies, Predicate<R> granted) {
        return Round.quorum(this, replies, granted);
    }

    /** Tallies replies until every node answered, or the per-node timeout. */
    public <R> CompletableFuture<RoundResult<R>> all(List<? extends CompletionStage<R>> replies, Predicate<R> granted) {
        return Round.all(this, replies, granted);
    }

    /** Tallies the {@code required} nodes' replies, waiting for the others only until {@code othersDeadline}. */
    public <R> CompletableFuture<RoundResult<R>> required(List<? extends CompletionStage<R>> replies, Predicate<R> granted,
            boolean[] required, long othersDeadline) {
        return Round.required(this, replies, granted, required, othersDeadline);
    }

    /** {@code read} on every node at once; completes with every node's report, in node order. */
    public <T> CompletableFuture<List<T>> gather(Command<T> read) {
        List<CompletableFuture<T>> reads = send(read);
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
                .thenApply(done -> reads.stream().map(CompletableFuture::join).toList());
    }

    public int size() {
        return nodes.size();
    }

    public NodeClient get(int index) {
        return nodes.get(index);
    }

    public RedisClient client() {
        return client;
    }

    /** The per-node timeout, in nanoseconds. */
    public long nodeTimeoutNanos() {
        return nodeTimeoutNanos;
    }

    public Ticker ticker() {
        return ticker;
    }

    public Scheduler scheduler() {
        return scheduler;
    }

    /**
     * Runs a round's deadline {@code task} (cheap, never blocking) {@code delayNanos} from now: on the I/O event loop
     * that is starting the round when the scheduler lends deadlines to it (no other thread to wake), else on the
     * scheduler.
     */
    Future<?> deadline(Runnable task, long delayNanos) {
        EventExecutor loop = scheduler.lendsDeadlinesToIoThreads() ? flusher.currentIoLoop() : null;
        return loop != null ? loop.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS)
                : scheduler.schedule(task, delayNanos);
    }

    public Redaction redaction() {
        return redaction;
    }

    /** A node failed or timed out in a round. */
    void nodeFailed(NodeFailure failure) {
        failures.accept(failure);
    }

    /** Closes the connections, then Lettuce's threads (if this set created them), then the scheduler. */
    @Override
    public void close() {
        for (NodeClient node : nodes) {
            try {
                node.close();
            } catch (RuntimeException e) {
                log.debug("{}: close failed: {}", node.name(), redaction.scrub(e.toString()));
            }
        }
        clusterClients.forEach(cluster -> cluster.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT));
        client.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT);
        if (ownedResources != null) {
            try {
                ownedResources.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                        .get(SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                // resources given a provider leave it running: its I/O thread is ours to end
                ownedIoLoop.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                        .get(SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                log.debug("Lettuce resources did not shut down within {}: {}", SHUTDOWN_TIMEOUT, e.toString());
            }
            ownedThreads.awaitEnded(SHUTDOWN_TIMEOUT);
        }
        scheduler.shutdown(SHUTDOWN_TIMEOUT);
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
