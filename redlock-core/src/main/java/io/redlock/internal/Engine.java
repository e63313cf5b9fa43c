package io.redlock.internal;

import io.lettuce.core.cluster.SlotHash;
import io.redlock.Inspection;
import io.redlock.Lease;
import io.redlock.LeaseListener;
import io.redlock.LeaseWork;
import io.redlock.LockOptions;
import io.redlock.LockTarget.Kind;
import io.redlock.LockTarget;
import io.redlock.LossReason;
import io.redlock.MultiLease;
import io.redlock.PingResult;
import io.redlock.RedlockClosedException;
import io.redlock.RedlockConfig;
import io.redlock.RedlockConfigException;
import io.redlock.RedlockException;
import io.redlock.RedlockLock;
import io.redlock.RedlockObserver;
import io.redlock.RedlockReadWriteLock;
import io.redlock.RedlockSemaphore;
import io.redlock.ReleaseResult;
import io.redlock.ResourceStatus;
import io.redlock.internal.node.NodeSet;
import io.redlock.internal.protocol.HeldKeys;
import io.redlock.internal.protocol.Keys;
import io.redlock.internal.protocol.KeysOfAll;
import io.redlock.internal.protocol.PermitKeys;
import io.redlock.internal.protocol.ReaderKeys;
import io.redlock.internal.protocol.ScriptSettings;
import io.redlock.internal.protocol.Scripts;
import io.redlock.internal.time.TimerWheel;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Redlock algorithm (SPEC R1–R9) over the nodes of one configuration, as a thin owner of the parts that do the
 * work: the {@link NodeSet} (connections and the fan-out every operation uses), acquisition ({@link AcquireLoop},
 * {@link Acquisition}), {@link Extension}, {@link Releases}, {@link Reports}, {@link QueueUpkeep} and
 * {@link Events}. It checks each call's arguments, keeps the leases its watchdogs keep alive, and closes everything in
 * order.
 */
public final class Engine implements AutoCloseable, LeaseOps {

    /** The token of a lease taken without fencing. */
    static final long NO_TOKEN = -1;
    /** The token of a lease handle made from a value acquired elsewhere. */
    static final long UNKNOWN_TOKEN = -2;
    /** How long {@link #close()} waits for kept-alive leases' releases and other deletes to land. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(2);

    private final RedlockConfig config;
    private final Seams seams;
    private final Events events;
    private final NodeSet nodes;
    private final Releases releases;
    private final Extension extension;
    private final Reports reports;
    private final QueueUpkeep queue;
    private final ScriptSettings scriptSettings;
    private final TimerWheel timers;
    private final ByValue byValue;
    private final LockRunner runner = new LockRunner(this);
    private final LockValues values = new LockValues();
    private final QuorumHealth health;
    private final Set<CompletableFuture<?>> acquiring = ConcurrentHashMap.newKeySet();
    /** Deletes, queue leaves and rounds in flight that close() lets finish. */
    private final PendingWork pending = new PendingWork();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Leases a watchdog keeps alive, with the observers' scope of their hold: closing the engine ends them. */
    private final Map<RedlockLease, RedlockObserver.Hold> keptAlive = new ConcurrentHashMap<>();
    private ReleaseNotifier releaseNotifier;

    public Engine(RedlockConfig config, Seams seams) {
        this.config = config;
        this.seams = seams;
        this.events = new Events(config);
        this.health = new QuorumHealth(config.nodes().size());
        this.nodes = new NodeSet(config, Scripts.BATCH, seams.newScheduler(), events::nodeFailed);
        this.releases = new Releases(nodes, pending, config.fencing(), config.quorum());
        this.extension = new Extension(nodes, events, config.driftFactor());
        this.reports = new Reports(nodes, config);
        this.queue = new QueueUpkeep(nodes, pending);
        this.scriptSettings = ScriptSettings.of(config);
        this.timers = new TimerWheel(nodes.scheduler(), nodes.ticker());
        this.byValue = new ByValue(this, extension, releases);
    }

    /**
     * Acquisition rounds of {@code resource}'s lock until one succeeds or {@code maxWait} is spent; {@code ZERO}
     * means one round. The stage also tells how the call ended ({@link Acquiring#nodesUnavailable()}).
     */
    public Acquiring acquire(String resource, Duration ttl, Duration maxWait) {
        return acquire(LockTarget.of(resource), ttl, maxWait);
    }

    /**
     * {@link #acquire} of several resources at once ({@link Scripts#ACQUIRE_ALL}): each node grants all of them or
     * none. The stage completes with the {@link MultiLease}, or empty; completing it early (cancel, interrupt) ends
     * the rounds, and a lease won meanwhile is released.
     */
    public CompletionStage<Optional<MultiLease>> acquireAll(Collection<String> resources, Duration ttl,
            Duration maxWait) {
        List<String> all = ConfigCheck.resources(resources);
        Acquiring rounds = acquireSeveral(all, ttl, maxWait);
        CompletableFuture<Optional<MultiLease>> multi = rounds
                .thenApply(lease -> lease.map(held -> new RedlockMultiLease(all, (RedlockLease) held)));
        multi.whenComplete((lease, failure) -> {
            if (failure != null && !rounds.completeExceptionally(failure)) {
                rounds.thenAccept(won -> won.ifPresent(Lease::releaseAsync)); // won just before the caller gave up
            }
        });
        return multi;
    }

    /**
     * {@link #acquire} of any kind of lock ({@link LockTarget}); a lock of several resources completes with the lease
     * of their keys.
     */
    public Acquiring acquire(LockTarget target, Duration ttl, Duration maxWait) {
        Kind kind = target.kind();
        if (kind == Kind.SEVERAL) {
            return acquireSeveral(ConfigCheck.resources(target.resources()), ttl, maxWait);
        }
        String resource = target.resource();
        ConfigCheck.resource(resource);
        Keys keys = keysOf(resource);
        HeldKeys held = switch (kind) {
            // a reader: granted beside other readers, refused while a writer holds the resource or waits for it
            case READ -> new ReaderKeys(keys);
            // a permit: the first try asks for a random slot, so callers spread over the free ones
            case PERMIT -> {
                ConfigCheck.permits(target.permits());
                yield PermitKeys.first(keys, target.permits(), random().nextInt(target.permits()));
            }
            default -> keys;
        };
        return rounds(kind, resource, held, ttl, maxWait);
    }

    private Acquiring acquireSeveral(List<String> all, Duration ttl, Duration maxWait) {
        return rounds(Kind.SEVERAL, all.toString(), keysOfAll(all), ttl, maxWait);
    }

    /** The acquisition rounds of {@code keys}, after the checks every kind of lock shares. */
    private Acquiring rounds(Kind kind, String name, HeldKeys keys, Duration ttl, Duration maxWait) {
        ConfigCheck.ttlLeavesValidity("ttl", ttl, config.nodeTimeout(), config.driftFactor());
        ConfigCheck.maxWait(maxWait);
        ensureOpen();
        return AcquireLoop.start(this, kind, name, keys, ttl, maxWait, acquiring);
    }

    @Override
    public CompletableFuture<Boolean> extend(RedlockLease lease, Duration ttl) {
        return extendOutcome(lease, ttl).thenApply(outcome -> outcome == ExtendOutcome.EXTENDED);
    }

    /** See {@link Extension#extend}; checks the TTL and that the engine is open first. */
    CompletableFuture<ExtendOutcome> extendOutcome(RedlockLease lease, Duration ttl) {
        ConfigCheck.ttlLeavesValidity("ttl", ttl, config.nodeTimeout(), config.driftFactor());
        ensureOpen();
        return extension.extend(lease, ttl);
    }

    @Override
    public CompletableFuture<Void> release(RedlockLease lease) {
        return releases.release(lease);
    }

    @Override
    public CompletableFuture<Void> reExpire(RedlockLease lease, Duration keep) {
        ensureOpen();
        return extension.reExpire(lease, keep);
    }

    @Override
    public void watch(RedlockLease lease) {
        Watchdog.of(this, lease);
    }

    /** Extends a lease acquired elsewhere, known by its value; the renewed handle if a majority confirmed. */
    public CompletableFuture<Optional<Lease>> extendValue(String resource, String value, Duration ttl) {
        ConfigCheck.resource(resource);
        ConfigCheck.ttlLeavesValidity("ttl", ttl, config.nodeTimeout(), config.driftFactor());
        ensureOpen();
        return byValue.extend(keysOf(resource), resource, value, ttl);
    }

    /** Releases a lease acquired elsewhere, known by its value: how many nodes held it, which did not answer. */
    public CompletableFuture<ReleaseResult> releaseValue(String resource, String value) {
        ConfigCheck.resource(resource);
        ensureOpen();
        return byValue.release(keysOf(resource), resource, value);
    }

    /** {@code withLock}: see {@link LockRunner}. */
    public <T> T withLock(LockTarget target, LockOptions options, LeaseWork<T> work) {
        return runner.withLock(target, LockPlan.of(options, config), work);
    }

    /** {@code withLockAsync}: see {@link LockRunner}. */
    public <T> CompletionStage<T> withLockAsync(LockTarget target, LockOptions options,
            LeaseWork<? extends CompletionStage<T>> work) {
        return runner.withLockAsync(target, LockPlan.of(options, config), work);
    }

    /** A {@link RedlockLock} on {@code resource}. */
    public RedlockLock lock(String resource, LockOptions options) {
        return new RedlockLockImpl(this, resource, LockPlan.of(options, config));
    }

    /** A {@link RedlockSemaphore} of {@code permits} on {@code resource}. */
    public RedlockSemaphore semaphore(String resource, int permits) {
        ConfigCheck.resource(resource);
        ConfigCheck.permits(permits);
        return new RedlockSemaphoreImpl(this, resource, permits);
    }

    /** A {@link RedlockReadWriteLock} on {@code resource}. */
    public RedlockReadWriteLock readWriteLock(String resource, LockOptions options) {
        return new RedlockReadWriteLockImpl(this, resource, LockPlan.of(options, config));
    }

    /** Every node's settings. */
    public CompletableFuture<Inspection> inspect() {
        ensureOpen();
        return reports.inspect();
    }

    /** What every node holds for {@code resource}. */
    public CompletableFuture<ResourceStatus> status(String resource) {
        ConfigCheck.resource(resource);
        ensureOpen();
        return reports.status(resource, keysOf(resource));
    }

    /** PING on every node at once, each awaited for at most the per-node timeout. */
    public CompletableFuture<List<PingResult>> ping() {
        ensureOpen();
        return reports.ping();
    }

    /** How many auto-extended leases are held right now. */
    public int activeLeases() {
        return keptAlive.size();
    }

    /** A watchdog starts keeping {@code lease} alive: the observers hear that its hold starts. */
    void keptAlive(RedlockLease lease) {
        keptAlive.put(lease, events.holdStarted(lease));
    }

    /**
     * A watchdog stopped keeping {@code lease} alive: returns the observers' scope of its hold, for the watchdog to end
     * once it knows whether the lease was lost.
     */
    RedlockObserver.Hold noLongerKeptAlive(RedlockLease lease) {
        RedlockObserver.Hold hold = keptAlive.remove(lease);
        return hold == null ? RedlockObserver.Hold.NONE : hold;
    }

    /** A lease was just granted: watch it if a global listener wants to hear about its loss. */
    void granted(RedlockLease lease) {
        if (events.listening()) {
            Watchdog.of(this, lease);
        }
    }

    /**
     * The keys of several resources; with a Redis Cluster member their lock keys must share one hash slot (one script
     * touches them all), else a {@link RedlockConfigException} says how to tag them.
     */
    private KeysOfAll keysOfAll(List<String> resources) {
        List<Keys> members = resources.stream().map(this::keysOf).toList();
        if (config.hashTaggedKeys()) {
            int slot = SlotHash.getSlot(members.get(0).lock());
            for (Keys member : members) {
                if (SlotHash.getSlot(member.lock()) != slot) {
                    throw new RedlockConfigException("with a Redis Cluster member the resources of one lock must share"
                            + " a hash slot, so that one script takes them all: give them one hash tag ({order:42}:a,"
                            + " {order:42}:b); " + resources + " do not");
                }
            }
        }
        return new KeysOfAll(members);
    }

    /**
     * The names of {@code resource}'s keys: the lock key is the key prefix, then the resource; the others are
     * hash-tagged into its slot when a member is a Redis Cluster.
     */
    private Keys keysOf(String resource) {
        String prefix = config.keyPrefix();
        // no prefix: the lease shares one string
        return Keys.of(prefix.isEmpty() ? resource : prefix + resource, config.hashTaggedKeys());
    }

    /** The pub/sub side of wake-on-release, opened on first use. */
    synchronized ReleaseNotifier releaseNotifier() {
        if (releaseNotifier == null) {
            releaseNotifier = new ReleaseNotifier(nodes.client(), config.nodes(), nodes.redaction());
        }
        return releaseNotifier;
    }

    /** Keeps {@code work} (an acquisition round, say) until it completes, so {@link #close()} can let it finish. */
    void track(CompletableFuture<?> work) {
        pending.track(work);
    }

    RedlockConfig config() {
        return config;
    }

    NodeSet nodes() {
        return nodes;
    }

    /** See {@link io.redlock.Redlock#addObserver}. */
    public void addObserver(RedlockObserver observer) {
        events.add(observer);
    }

    /** See {@link io.redlock.Redlock#addLeaseListener}. */
    public void addLeaseListener(LeaseListener listener) {
        events.add(listener);
    }

    Events events() {
        return events;
    }

    Releases releases() {
        return releases;
    }

    QueueUpkeep queue() {
        return queue;
    }

    /** The watchdogs' timers. */
    TimerWheel timers() {
        return timers;
    }

    /** The configuration as the lock scripts take it. */
    ScriptSettings scriptSettings() {
        return scriptSettings;
    }

    QuorumHealth health() {
        return health;
    }

    LockValues values() {
        return values;
    }

    /** The random source of retry delays and extension spread, for the calling thread. */
    java.util.random.RandomGenerator random() {
        return seams.random();
    }

    FaultHooks faultHooks() {
        return seams.faultHooks();
    }

    boolean isClosed() {
        return closed.get();
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
        for (CompletableFuture<?> waiting : acquiring) {
            waiting.completeExceptionally(closedException());
        }
        for (RedlockLease lease : List.copyOf(keptAlive.keySet())) {
            Watchdog dog = lease.watchdog();
            if (dog != null) {
                dog.loseOnClose(Thread.currentThread());
            }
            lease.releaseAsync();
        }
        releases.stop(CLOSE_WAIT);
        synchronized (this) {
            if (releaseNotifier != null) {
                releaseNotifier.close();
            }
        }
        nodes.close();
    }
}
