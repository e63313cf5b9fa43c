package io.redlock.internal;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import io.redlock.Inspection;
import io.redlock.Lease;
import io.redlock.LossReason;
import io.redlock.NodeFailure;
import io.redlock.NodeReport;
import io.redlock.NodeStatus;
import io.redlock.ReleaseResult;
import io.redlock.ResourceStatus;
import io.redlock.QuorumUnreachableException;
import io.redlock.RedlockClosedException;
import io.redlock.RedlockConfig;
import io.redlock.RedlockException;
import io.redlock.RedlockObserver;
import io.redlock.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Redlock algorithm (SPEC R1–R9) over the nodes of one configuration: acquisition rounds with retries
 * ({@link Acquisition}), extend and release, each a {@link Round} to all nodes at once. Owns the Lettuce client, the
 * node connections and one scheduler thread.
 */
public final class Engine implements AutoCloseable, Round.Context, LeaseOps {

    /** The token of a lease taken without fencing. */
    static final long NO_TOKEN = -1;
    /** The token of a lease handle made from a value acquired elsewhere. */
    static final long UNKNOWN_TOKEN = -2;
    /** A script reply of 1: the node held our value and applied the change. */
    static final Predicate<Long> CONFIRMED = reply -> reply != null && reply == 1L;

    private static final Logger log = LoggerFactory.getLogger(Engine.class);
    private static final Duration MIN_CONNECT_TIMEOUT = Duration.ofSeconds(1);
    /** How long {@link #close()} waits for kept-alive leases' releases and other deletes to land. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(2);
    /** How long {@link #close()} waits for each of the connections, Lettuce's threads and its own thread to end. */
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);

    private final RedlockConfig config;
    private final Ticker ticker;
    private final long nodeTimeoutNanos;
    private final Redaction redaction;
    private final ClientResources ownedResources;
    private final OwnedThreads ownedThreads;
    private final RedisClient client;
    private final List<NodeClient> nodes;
    private final Scheduler scheduler;
    private final Seams seams;
    private final LockValues values = new LockValues();
    /** How long a waiter's place in a queue lasts without a new attempt: two of its longest pauses between rounds. */
    private final String queueLifetimeArg;
    /** With fencing every waiter queues, so a release announces itself only while someone is queued. */
    private final String publishOnlyToQueue;
    private final QuorumHealth health;
    private final NodeStates nodeStates = new NodeStates();
    private final Set<CompletableFuture<?>> acquiring = ConcurrentHashMap.newKeySet();
    /** Deletes, queue leaves and rounds in flight that close() lets finish. */
    private final PendingWork pending = new PendingWork();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Leases a watchdog keeps alive: closing the engine ends them. */
    private final Set<RedlockLease> keptAlive = ConcurrentHashMap.newKeySet();
    /** Set once close() has let the pending deletes finish: the connections are closing, repeats stop. */
    private volatile boolean terminated;
    private ReleaseNotifier releaseNotifier;

    public Engine(RedlockConfig config, Seams seams) {
        this.config = config;
        this.seams = seams;
        this.ticker = config.ticker();
        this.nodeTimeoutNanos = config.nodeTimeout().toNanos();
        this.publishOnlyToQueue = config.fencing() ? "1" : "0";
        this.queueLifetimeArg = Long.toString(
                2 * (config.retry().maxDelay().toMillis() + config.nodeTimeout().toMillis()) + 1);
        this.redaction = Redaction.of(config.nodes());
        this.health = new QuorumHealth(config.nodes().size());
        Duration connectTimeout = max(MIN_CONNECT_TIMEOUT, config.nodeTimeout().multipliedBy(10));
        this.ownedThreads = new OwnedThreads();
        this.ownedResources = config.clientResources().isPresent() ? null
                : DefaultClientResources.builder().threadFactoryProvider(ownedThreads).ioThreadPoolSize(1)
                        .computationThreadPoolSize(1)
                        .reconnectDelay(Delay.exponential(Duration.ofMillis(10), Duration.ofSeconds(1), 2,
                                TimeUnit.MILLISECONDS))
                        .build();
        this.client = RedisClient.create(config.clientResources().orElse(ownedResources));
        client.setOptions(ClientOptions.builder()
                .autoReconnect(true)
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .protocolVersion(ProtocolVersion.RESP2)
                .socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).keepAlive(true).build())
                // a safety net for commands a stalled node never answers; rounds stop waiting much earlier
                .timeoutOptions(TimeoutOptions.enabled(connectTimeout))
                .build());
        this.scheduler = seams.newScheduler();
        List<NodeClient> list = new ArrayList<>();
        for (RedisURI uri : config.nodes()) {
            list.add(new NodeClient(uri, client, ticker, redaction, connectTimeout));
        }
        this.nodes = List.copyOf(list);
        connectAll(connectTimeout);
    }

    /** Starts every connection and waits, bounded, until each has settled, so the first round finds them ready. */
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

    @Override
    public long nodeTimeoutNanos() {
        return nodeTimeoutNanos;
    }

    @Override
    public Ticker ticker() {
        return ticker;
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    /** The random source of retry delays and extension spread, for the calling thread. */
    java.util.random.RandomGenerator random() {
        return seams.random();
    }

    FaultHooks faultHooks() {
        return seams.faultHooks();
    }

    @Override
    public Redaction redaction() {
        return redaction;
    }

    RedlockConfig config() {
        return config;
    }

    List<NodeClient> nodes() {
        return nodes;
    }

    LockValues values() {
        return values;
    }

    String queueLifetimeArg() {
        return queueLifetimeArg;
    }

    /**
     * Takes a waiter out of a resource's queue on every node, without waiting: the commands are ordered before any
     * later one on the same connections, {@link #close()} lets them finish (closing ends every waiting call, which
     * leaves its queues first), and a place left behind lapses by itself.
     */
    void leaveQueue(Keys keys, String waiterId) {
        String[] queueKeys = keys.queue();
        for (NodeClient node : nodes) {
            leaveQueueOn(node, queueKeys, waiterId);
        }
    }

    /** Takes a waiter out of a resource's queue on one node, as {@link #leaveQueue(Keys, String)}. */
    void leaveQueue(NodeClient node, Keys keys, String waiterId) {
        leaveQueueOn(node, keys.queue(), waiterId);
    }

    private void leaveQueueOn(NodeClient node, String[] queueKeys, String waiterId) {
        pending.track(node.eval(Scripts.LEAVE_QUEUE, queueKeys, waiterId).toCompletableFuture());
    }

    QuorumHealth health() {
        return health;
    }

    /**
     * Acquisition rounds until one succeeds or {@code maxWait} is spent; {@code ZERO} means one round. The observer
     * hears how the call ended before the caller does. Completing the returned stage early (cancel, interrupt, close)
     * ends the rounds; a lease won meanwhile is released.
     */
    public CompletableFuture<Optional<Lease>> acquire(String resource, Duration ttl, Duration maxWait) {
        ConfigCheck.resource(resource);
        ConfigCheck.ttlAboveNodeTimeout("ttl", ttl, config.nodeTimeout());
        ConfigCheck.maxWait(maxWait);
        ensureOpen();
        CompletableFuture<Optional<Lease>> result = new CompletableFuture<>();
        CompletableFuture<Optional<Lease>> ended = new CompletableFuture<>();
        acquiring.add(result);
        long started = ticker.read();
        AcquireLoop loop = new AcquireLoop(this, resource, keyOf(resource), ttl.toMillis(),
                Deadline.after(ticker, maxWait), ended);
        result.whenComplete((lease, failure) -> {
            acquiring.remove(result);
            if (failure != null) {
                ended.completeExceptionally(failure); // the caller gave up: the rounds stop
            }
        });
        ended.whenComplete((lease, failure) -> {
            observe(o -> o.acquisition(resource, loop.outcome(lease, failure),
                    Duration.ofNanos(ticker.read() - started)));
            if (failure != null) {
                result.completeExceptionally(failure);
            } else if (!result.complete(lease)) {
                lease.ifPresent(Lease::releaseAsync); // the caller gave up meanwhile
            }
        });
        loop.attempt();
        return result;
    }

    @Override
    public void nodeFailed(NodeFailure failure) {
        nodeStates.failed(failure);
        observe(o -> o.nodeFailed(failure));
    }

    /** An acquisition round was decided: the nodes that voted in it are past any state they were in. */
    void voted(RoundResult<?> round) {
        for (int i = 0; i < nodes.size(); i++) {
            if (round.voted(i)) {
                nodeStates.answered(nodes.get(i).name());
            }
        }
    }

    private void observe(java.util.function.Consumer<RedlockObserver> event) {
        RedlockObserver observer = config.observer().orElse(null);
        if (observer == null) {
            return;
        }
        try {
            event.accept(observer);
        } catch (RuntimeException e) {
            log.warn("a RedlockObserver failed: {}", e.toString(), e);
        }
    }

    /** How many auto-extended leases are held right now. */
    public int activeLeases() {
        return keptAlive.size();
    }

    /** A watchdog started, or stopped, keeping {@code lease} alive. */
    void keptAlive(RedlockLease lease, boolean alive) {
        if (alive) {
            keptAlive.add(lease);
        } else {
            keptAlive.remove(lease);
        }
    }

    /** A lease was just granted: watch it if a global listener wants to hear about its loss. */
    void granted(RedlockLease lease) {
        if (config.leaseListener().isPresent()) {
            Watchdog.of(this, lease);
        }
    }

    @Override
    public void watch(RedlockLease lease) {
        Watchdog.of(this, lease);
    }

    /**
     * For a holder about to release: the loss of the lease, if it was lost or its validity ran out before the
     * watchdog noticed (then the listeners are told now).
     */
    Optional<LossReason> settleBeforeRelease(RedlockLease lease) {
        Optional<LossReason> lost = lease.lossBeforeRelease();
        if (lost.isPresent() && lease.takePendingTell()) {
            log.warn("lost the lock on '{}': {}", lease.resource(), lost.get().description());
            lease.tellListeners(lost.get());
            tellListener(lease, lost.get());
        }
        return lost;
    }

    /** Tells the global listener, if any, that a lease was lost. */
    void tellListener(RedlockLease lease, LossReason reason) {
        config.leaseListener().ifPresent(listener -> Listeners.notify(listener, lease, reason));
    }

    /** The pub/sub side of wake-on-release, opened on first use. */
    synchronized ReleaseNotifier releaseNotifier() {
        if (releaseNotifier == null) {
            releaseNotifier = new ReleaseNotifier(client, config.nodes(), redaction);
        }
        return releaseNotifier;
    }

    boolean isClosed() {
        return closed.get();
    }

    /** True once {@link #close()} is closing the connections: nothing more is sent. */
    boolean isTerminated() {
        return terminated;
    }

    /** What an extension achieved. */
    enum ExtendOutcome {
        /** A majority confirmed inside the new validity; the lease was renewed. */
        EXTENDED,
        /** A majority answered that it does not hold the lease's value: the lock is gone. */
        REFUSED,
        /** No majority this time (nodes down or slow, or no validity left); the lease may still hold. */
        FAILED
    }

    @Override
    public CompletableFuture<Boolean> extend(RedlockLease lease, Duration ttl) {
        return extendOutcome(lease, ttl).thenApply(outcome -> outcome == ExtendOutcome.EXTENDED);
    }

    /** SPEC R8: compare-and-PEXPIRE on every node, counted only with a majority inside the new validity. */
    CompletableFuture<ExtendOutcome> extendOutcome(RedlockLease lease, Duration ttl) {
        ConfigCheck.ttlAboveNodeTimeout("ttl", ttl, config.nodeTimeout());
        ensureOpen();
        if (!lease.isValid() && !(lease.isAdopted() && !lease.isReleased())) {
            return CompletableFuture.completedFuture(ExtendOutcome.FAILED);
        }
        long ttlMillis = ttl.toMillis();
        long ttlNanos = TimeUnit.MILLISECONDS.toNanos(ttlMillis);
        String ttlArg = Long.toString(ttlMillis);
        long start = ticker.read();
        lease.writing(start + ttlNanos);
        List<CompletableFuture<Long>> pexpires = new ArrayList<>(nodes.size());
        for (NodeClient node : nodes) {
            pexpires.add(node.eval(Scripts.EXTEND, lease.key(), lease.value(), ttlArg).toCompletableFuture());
        }
        CompletableFuture<ExtendOutcome> outcome = Round.quorum(nodes, pexpires, CONFIRMED, this).thenApply(round -> {
            long validity = Validity.validityNanos(ttlNanos, round.decidedAt() - start, config.driftFactor());
            long newValidUntil = Validity.validUntil(start, ttlNanos, config.driftFactor());
            if (round.won() && validity > 0) {
                lease.renew(newValidUntil);
                return ExtendOutcome.EXTENDED;
            }
            lease.shortenTo(newValidUntil);
            List<NodeFailure> failures = round.failures();
            if (round.failuresPreventQuorum() && failures.stream().anyMatch(f -> f.kind() == NodeFailure.Kind.ERROR)) {
                throw new QuorumUnreachableException("cannot extend '" + lease.resource() + "': " + failures.size()
                        + " of " + nodes.size() + " nodes failed: " + failures, failures);
            }
            log.debug("{}: extension not confirmed by a majority; failures: {}", lease.resource(), failures);
            return round.refusalsPreventQuorum() ? ExtendOutcome.REFUSED : ExtendOutcome.FAILED;
        });
        outcome.whenComplete((result, failure) -> observe(o -> o.extension(lease.resource(),
                result == ExtendOutcome.EXTENDED, Duration.ofNanos(ticker.read() - start))));
        return outcome;
    }

    /**
     * SPEC R7: compare-and-delete on every node; done once a majority answered (the lock is then free for others) or
     * at the per-node timeout. The other nodes' deletes are sent already and land in the background: waiting for the
     * slowest node would only add its latency to every hand-over.
     */
    @Override
    public CompletableFuture<Void> release(RedlockLease lease) {
        if (terminated) {
            log.debug("{}: Redlock is closed; the lease is left to expire", lease.resource());
            return CompletableFuture.completedFuture(null);
        }
        List<CompletableFuture<Long>> deletes = releasesAfter(lease.acquireReplies(), lease.key(), lease.value(),
                Scripts.RELEASED_BY_HOLDER, lease.keyExpiry());
        return Round.quorum(nodes, deletes, CONFIRMED, this)
                .handle((round, failure) -> {
                    if (failure != null) {
                        log.debug("{}: release abandoned, the Redlock was closed; the keys expire by their TTL",
                                lease.resource());
                    } else if (log.isDebugEnabled() && !round.failures().isEmpty()) {
                        log.debug("{}: release did not reach {}; those keys expire by their TTL", lease.resource(),
                                round.failures());
                    }
                    return null;
                });
    }

    /**
     * The compare-and-delete on every node (SPEC R5, R7), each a {@link NodeDelete}: sent after that node's acquire
     * reply, and repeated until it landed or the key would have expired anyway at {@code expiresAt}. Returns each
     * node's first reply; {@link #close()} lets the repeats still running finish, bounded.
     */
    List<CompletableFuture<Long>> releasesAfter(List<? extends CompletableFuture<?>> acquireReplies, String key,
            String value, String message, long expiresAt) {
        Keys names = Keys.of(key);
        String[] keys = names.release();
        String[] args = {value, message + value, publishOnlyToQueue, names.released()};
        List<CompletableFuture<Long>> releases = new ArrayList<>(nodes.size());
        CompletableFuture<?>[] settled = new CompletableFuture<?>[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            NodeDelete delete = NodeDelete.after(this, nodes.get(i), acquireReplies.get(i), keys, args, expiresAt);
            settled[i] = delete.settled();
            releases.add(delete.firstReply());
        }
        pending.track(CompletableFuture.allOf(settled));
        return releases;
    }

    /** Keeps {@code work} (an acquisition round, say) until it completes, so {@link #close()} can let it finish. */
    void track(CompletableFuture<?> work) {
        pending.track(work);
    }

    /** Extends a lease acquired elsewhere, known by its value; the renewed handle if a majority confirmed. */
    public CompletableFuture<Optional<Lease>> extendValue(String resource, String value, Duration ttl) {
        ConfigCheck.resource(resource);
        ConfigCheck.ttlAboveNodeTimeout("ttl", ttl, config.nodeTimeout());
        ensureOpen();
        RedlockLease adopted = adopt(resource, value);
        return extendOutcome(adopted, ttl).thenApply(outcome ->
                outcome == ExtendOutcome.EXTENDED ? Optional.<Lease>of(adopted) : Optional.<Lease>empty());
    }

    /** The lock key of {@code resource}: the key prefix, then the resource. */
    private String keyOf(String resource) {
        return config.keyPrefix() + resource;
    }

    /** Releases a lease acquired elsewhere, known by its value: how many nodes held it, which did not answer. */
    public CompletableFuture<ReleaseResult> releaseValue(String resource, String value) {
        ConfigCheck.resource(resource);
        ensureOpen();
        RedlockLease adopted = adopt(resource, value);
        return Round.all(nodes, releasesAfter(adopted.acquireReplies(), adopted.key(), value,
                Scripts.RELEASED_BY_HOLDER, adopted.keyExpiry()), CONFIRMED, this).thenApply(round -> {
                    List<NodeFailure> failures = round.failures();
                    if (round.failuresPreventQuorum() && round.granted() == 0) {
                        throw new QuorumUnreachableException("cannot release '" + resource + "': " + failures.size()
                                + " of " + nodes.size() + " nodes failed: " + failures, failures);
                    }
                    return new ReleaseResult(round.granted(), nodes.size() - failures.size(), config.quorum(),
                            failures);
                });
    }

    private RedlockLease adopt(String resource, String value) {
        if (value == null || value.isBlank()) {
            throw new io.redlock.RedlockConfigException("lease value must not be blank");
        }
        List<CompletableFuture<String>> none = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            none.add(CompletableFuture.completedFuture("OK"));
        }
        // its TTL is unknown here: its keys are deemed to live for the default TTL
        long now = ticker.read();
        return new RedlockLease(this, ticker, resource, keyOf(resource), value, now,
                now + config.defaultTtl().toNanos(), none,
                UNKNOWN_TOKEN);
    }

    /** How long a read for a report (inspect, status) waits for a node: max(1 s, the per-node timeout). */
    private long reportTimeoutNanos() {
        return Math.max(nodeTimeoutNanos, TimeUnit.SECONDS.toNanos(1));
    }

    /** Every node's settings, each within {@link #reportTimeoutNanos()}. */
    public CompletableFuture<Inspection> inspect() {
        ensureOpen();
        long timeout = reportTimeoutNanos();
        List<CompletableFuture<NodeReport>> reports = new ArrayList<>(nodes.size());
        for (NodeClient node : nodes) {
            reports.add(NodeInspector.inspect(node, timeout, redaction).toCompletableFuture());
        }
        return CompletableFuture.allOf(reports.toArray(CompletableFuture[]::new)).thenApply(done -> new Inspection(
                reports.stream().map(CompletableFuture::join).toList(), config.fencing(), config.fencingClockFloor()));
    }

    /** What every node holds for {@code resource}, each read within {@link #reportTimeoutNanos()}. */
    public CompletableFuture<ResourceStatus> status(String resource) {
        ConfigCheck.resource(resource);
        ensureOpen();
        Keys keys = Keys.of(keyOf(resource));
        List<CompletableFuture<NodeStatus>> reads = new ArrayList<>(nodes.size());
        for (NodeClient node : nodes) {
            reads.add(NodeStatusReader.read(node, keys, reportTimeoutNanos(), redaction));
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new)).thenApply(done -> new ResourceStatus(
                resource, config.quorum(), reads.stream().map(CompletableFuture::join).toList()));
    }

    /** PING on every node at once, each awaited for at most the per-node timeout. */
    public CompletableFuture<List<io.redlock.PingResult>> ping() {
        ensureOpen();
        return NodePing.all(nodes, this);
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw closedException();
        }
    }

    static RedlockException closedException() {
        return new RedlockClosedException();
    }

    /**
     * Refuses new work, ends every kept-alive lease (lost with {@link LossReason#CLOSED}: listeners told, holder
     * interrupted) and releases it on every node, lets pending deletes and queue leaves land for at most
     * {@link #CLOSE_WAIT}, then closes connections and threads. Leases without a watchdog are left to expire (the
     * {@code redlock acquire} command hands its lease to a later process this way). Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (CompletableFuture<?> pending : acquiring) {
            pending.completeExceptionally(closedException());
        }
        for (RedlockLease lease : List.copyOf(keptAlive)) {
            Watchdog dog = lease.watchdog();
            if (dog != null) {
                dog.lose(LossReason.CLOSED);
            }
            lease.releaseAsync();
        }
        pending.awaitFinished(ticker, CLOSE_WAIT);
        terminated = true;
        synchronized (this) {
            if (releaseNotifier != null) {
                releaseNotifier.close();
            }
        }
        for (NodeClient node : nodes) {
            try {
                node.close();
            } catch (RuntimeException e) {
                log.debug("{}: close failed: {}", node.name(), redaction.scrub(e.toString()));
            }
        }
        client.shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT);
        if (ownedResources != null) {
            try {
                ownedResources.shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
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
