package io.redlock;

import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import io.redlock.internal.node.NodeUris;
import io.redlock.internal.node.ParsedNode;
import io.redlock.internal.parts.ConfigCheck;
import io.redlock.internal.parts.Injected;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Collects settings for a {@link Redlock}. Every value is checked in {@link #config()} / {@link #build()}, which
 * throw {@link RedlockConfigException} naming the bad value.
 */
public final class RedlockBuilder {
    private final List<String> uriStrings = new ArrayList<>();
    private final List<RedisURI> uris = new ArrayList<>();
    private CharSequence password;
    private Duration defaultTtl = RedlockConfig.DEFAULT_TTL;
    private Duration defaultMaxWait = RedlockConfig.DEFAULT_MAX_WAIT;
    private double driftFactor = RedlockConfig.DEFAULT_DRIFT_FACTOR;
    private Duration nodeTimeout = RedlockConfig.DEFAULT_NODE_TIMEOUT;
    private RetryPolicy retry = RetryPolicy.defaults();
    private String keyPrefix = RedlockConfig.DEFAULT_KEY_PREFIX;
    private Ticker ticker = Ticker.system();
    private ClientResources clientResources;
    private boolean fencing = true;
    /** Null: the default, on with fencing. */
    private Boolean fencingClockFloor;
    /** Null: the default, {@link RedlockConfig#DEFAULT_FENCE_COUNTER_TTL} with fencing. */
    private Duration fenceCounterTtl;
    private boolean fenceCounterTtlSet;
    private boolean wakeOnRelease = true;
    private Injected injected = Injected.defaults();

    RedlockBuilder() {
    }

    /** What tests inject: the scheduler, random source and fault hooks of the engine. Not part of the API. */
    RedlockBuilder injected(Injected injected) {
        this.injected = Objects.requireNonNull(injected, "injected");
        return this;
    }

    /** Adds nodes by URI, e.g. {@code redis://:password@host:6379/0}; order is kept. */
    public RedlockBuilder nodes(String... uris) {
        uriStrings.addAll(List.of(uris));
        return this;
    }

    /** Adds nodes by URI; order is kept. */
    public RedlockBuilder nodes(List<String> uris) {
        uriStrings.addAll(uris);
        return this;
    }

    /**
     * Adds one quorum member that is a Redis Cluster, known by one or more seed URIs ({@code redis://host:port}):
     * the member grants a lock when the cluster's master for the lock's slot does, so its lock rate grows with its
     * shards. In URI strings ({@link #nodes(String...)}, the starter, the CLI) the same member is written
     * {@code cluster:redis://host1:7000|redis://host2:7000}. With a cluster member, the keys of one lock other
     * than the lock key are hash-tagged into the lock key's slot, on every member (docs/FENCING.md, "Keys").
     */
    public RedlockBuilder clusterNode(String... seedUris) {
        Objects.requireNonNull(seedUris, "seedUris");
        uriStrings.add(RedlockConfig.clusterMember(Arrays.stream(seedUris).map(String::valueOf).toList()));
        return this;
    }

    /**
     * The password of every node (every seed of a cluster member too) whose URI gives none, so that it need not be in
     * a URI: read from a file, say, rather than from a command line every local user sees or an environment a child
     * process inherits. Blank is refused. Default none.
     */
    public RedlockBuilder password(CharSequence password) {
        this.password = password;
        return this;
    }

    /** Adds one node. */
    public RedlockBuilder node(RedisURI uri) {
        uris.add(Objects.requireNonNull(uri, "uri"));
        return this;
    }

    /**
     * TTL of every call that gives none: the overloads without one, {@code withLock(resource, work)},
     * {@code lock(resource)} and {@link LockOptions} without a TTL. Default {@link RedlockConfig#DEFAULT_TTL}.
     */
    public RedlockBuilder defaultTtl(Duration ttl) {
        this.defaultTtl = ttl;
        return this;
    }

    /**
     * Wait of every call that may wait and gives none: {@code withLock(resource, work)} and {@link LockOptions}
     * without a wait. Default {@link RedlockConfig#DEFAULT_MAX_WAIT}.
     */
    public RedlockBuilder defaultMaxWait(Duration maxWait) {
        this.defaultMaxWait = maxWait;
        return this;
    }

    /** Clock drift allowance as a fraction of the TTL, in [0, 0.5). Default 0.01. */
    public RedlockBuilder driftFactor(double driftFactor) {
        this.driftFactor = driftFactor;
        return this;
    }

    /** How long to wait for one node's reply; must be smaller than every TTL. Default 50 ms. */
    public RedlockBuilder nodeTimeout(Duration nodeTimeout) {
        this.nodeTimeout = nodeTimeout;
        return this;
    }

    /** Delay between acquisition rounds. Default {@link RetryPolicy#defaults()}. */
    public RedlockBuilder retry(RetryPolicy retry) {
        this.retry = retry;
        return this;
    }

    /** Prepended to every resource to form the Redis key. Default empty. */
    public RedlockBuilder keyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
        return this;
    }

    /** Time source for all validity arithmetic. Default {@link Ticker#system()}. */
    public RedlockBuilder ticker(Ticker ticker) {
        this.ticker = ticker;
        return this;
    }

    /** Lettuce resources to share; the Redlock uses but never shuts them down. Default: its own. */
    public RedlockBuilder clientResources(ClientResources clientResources) {
        this.clientResources = clientResources;
        return this;
    }

    /**
     * Fencing tokens on (default) or off. On: every lease carries a token larger than any earlier holder's, kept
     * in a counter key {@code <key>:fence} on each node that expires {@link #fenceCounterTtl(Duration) when idle}
     * and is never deleted by a release. Off: the plain spec algorithm ({@code SET key value NX PX ttl}),
     * wire-compatible with other Redlock clients.
     */
    public RedlockBuilder fencing(boolean fencing) {
        this.fencing = fencing;
        return this;
    }

    /**
     * Raises each node's counter to at least {@code unix_seconds × 2^20} (from the node's {@code TIME}) before
     * incrementing, so tokens keep growing after a counter expired or a node restarted without its data (for a
     * restart: down for a couple of seconds plus twice the clock error). Default on. Needs
     * {@link #fencing(boolean) fencing}; off needs {@code fenceCounterTtl(Duration.ZERO)}.
     */
    public RedlockBuilder fencingClockFloor(boolean clockFloor) {
        this.fencingClockFloor = clockFloor;
        return this;
    }

    /**
     * How long a resource's fencing counter stays on a node after its last grant: the idle horizon that keeps
     * memory bounded. A counter that expired comes back at the clock floor, above every token it issued, as long
     * as no node's clock ran ahead of another's by more than this minus 1 s (docs/FENCING.md, "Counters that
     * expire"). At least 2 s; {@link Duration#ZERO} keeps counters forever (then the clock floor may be off).
     * Default {@link RedlockConfig#DEFAULT_FENCE_COUNTER_TTL}. Needs {@link #fencing(boolean) fencing}.
     */
    public RedlockBuilder fenceCounterTtl(Duration ttl) {
        this.fenceCounterTtl = ttl;
        this.fenceCounterTtlSet = true;
        return this;
    }

    /**
     * Whether a waiting acquisition subscribes to {@code <key>:released} (published by every release) and tries
     * again at once instead of sleeping out its retry delay. Polling stays as the fallback. Default true.
     */
    public RedlockBuilder wakeOnRelease(boolean wakeOnRelease) {
        this.wakeOnRelease = wakeOnRelease;
        return this;
    }

    /** Validates the settings without connecting. */
    public RedlockConfig config() {
        List<ParsedNode> all = new ArrayList<>(NodeUris.parseNodes(uriStrings));
        uris.forEach(uri -> all.add(new ParsedNode(uri, List.of())));
        if (password != null) {
            ConfigCheck.password(password);
            all.replaceAll(node -> node.withPassword(password));
        }
        NodeUris.nodes(all);
        ConfigCheck.positive("defaultTtl", defaultTtl);
        ConfigCheck.positive("nodeTimeout", nodeTimeout);
        ConfigCheck.driftFactor(driftFactor);
        ConfigCheck.ttlLeavesValidity("defaultTtl", defaultTtl, nodeTimeout, driftFactor);
        ConfigCheck.maxWait("defaultMaxWait", defaultMaxWait);
        if (retry == null) {
            throw new RedlockConfigException(List.of("retry"), "retry must not be null");
        }
        if (keyPrefix == null) {
            throw new RedlockConfigException(List.of("keyPrefix"), "keyPrefix must not be null (use \"\" for none)");
        }
        if (ticker == null) {
            throw new RedlockConfigException(List.of("ticker"), "ticker must not be null");
        }
        ConfigCheck.fenceCounter(fencing, fencingClockFloor, fenceCounterTtlSet, fenceCounterTtl);
        boolean clockFloor = fencing && (fencingClockFloor == null || fencingClockFloor);
        Duration counterTtl = !fencing ? Duration.ZERO
                : fenceCounterTtlSet ? fenceCounterTtl : RedlockConfig.DEFAULT_FENCE_COUNTER_TTL;
        return new RedlockConfig(all.stream().map(ParsedNode::uri).toList(),
                all.stream().map(ParsedNode::clusterSeeds).toList(), defaultTtl, defaultMaxWait, driftFactor, nodeTimeout, retry, keyPrefix, ticker,
                clientResources, fencing, clockFloor, counterTtl, wakeOnRelease);
    }

    /** Validates the settings and creates the Redlock, which starts connecting to every node. */
    public Redlock build() {
        return new Redlock(config(), injected);
    }
}
