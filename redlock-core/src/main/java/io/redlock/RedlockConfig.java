package io.redlock;

import io.lettuce.core.RedisURI;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The immutable, validated settings of a {@link Redlock}. Built by {@link Redlock#builder()}; every value was
 * checked when it was built.
 */
public final class RedlockConfig {

    /**
     * Default lease time of every call that gives none ({@code tryAcquire(resource)}, {@code withLock(resource,
     * work)}, {@code lock(resource)}, options without a TTL): 10 seconds (the spec's example).
     */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(10);
    /** Default wait of every call that may wait and gives no wait ({@code withLock}, options without one): 30 s. */
    public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(30);
    /** Default clock drift factor: 1 % of the TTL (plus 2 ms), as in the reference implementations. */
    public static final double DEFAULT_DRIFT_FACTOR = 0.01;
    /** Default per-node reply timeout for acquire, extend and release: 50 ms. */
    public static final Duration DEFAULT_NODE_TIMEOUT = Duration.ofMillis(50);
    /** Default key prefix: empty, so the Redis key is the resource name and other Redlock clients interoperate. */
    public static final String DEFAULT_KEY_PREFIX = "";
    /**
     * Default idle horizon of a fencing counter: 24 hours. A counter left that long without a grant expires; it comes
     * back at the clock floor, so tokens keep growing unless node clocks differ by almost a day.
     */
    public static final Duration DEFAULT_FENCE_COUNTER_TTL = Duration.ofHours(24);
    /** The shortest accepted fencing counter horizon: the clock floor counts whole seconds, so 1 s plus 1 s of skew. */
    public static final Duration MIN_FENCE_COUNTER_TTL = Duration.ofSeconds(2);
    /**
     * How a node URI string names a Redis Cluster as one quorum member: {@code cluster:} then one or more seed URIs
     * separated by {@link #CLUSTER_SEED_SEPARATOR}, e.g. {@code cluster:redis://10.0.0.1:7000|redis://10.0.0.2:7000}.
     */
    public static final String CLUSTER_PREFIX = "cluster:";
    /** Separates the seed URIs of one cluster member ({@code |} never appears in a URI unescaped). */
    public static final String CLUSTER_SEED_SEPARATOR = "|";

    /** The node URI string of a cluster member with these seeds: {@code cluster:<seed>|<seed>…}. */
    public static String clusterMember(List<String> seedUris) {
        return CLUSTER_PREFIX + String.join(CLUSTER_SEED_SEPARATOR, seedUris);
    }
    /** The most resources one lock of several resources ({@code Redlock.acquireAll}) may take. */
    public static final int MAX_RESOURCES_AT_ONCE = 64;
    /** The most permits a semaphore ({@code Redlock.semaphore}) may have. */
    public static final int MAX_PERMITS = 64;
    /** The longest accepted resource name, in UTF-8 bytes. */
    public static final int MAX_RESOURCE_BYTES = 4096;

    private final List<RedisURI> nodes;
    /** Per member, its cluster seeds; empty for a member that is one server (or a sentinel-watched master). */
    private final List<List<RedisURI>> clusterSeeds;
    private final boolean hashTaggedKeys;
    private final Duration defaultTtl;
    private final Duration defaultMaxWait;
    private final double driftFactor;
    private final Duration nodeTimeout;
    private final RetryPolicy retry;
    private final String keyPrefix;
    private final Ticker ticker;
    private final ClientResources clientResources;
    private final boolean fencing;
    private final boolean fencingClockFloor;
    private final Duration fenceCounterTtl;
    private final boolean wakeOnRelease;

    RedlockConfig(List<RedisURI> nodes, List<List<RedisURI>> clusterSeeds, Duration defaultTtl, Duration defaultMaxWait, double driftFactor, Duration nodeTimeout,
            RetryPolicy retry, String keyPrefix, Ticker ticker, ClientResources clientResources, boolean fencing,
            boolean fencingClockFloor, Duration fenceCounterTtl, boolean wakeOnRelease) {
        this.wakeOnRelease = wakeOnRelease;
        this.nodes = List.copyOf(nodes);
        this.clusterSeeds = clusterSeeds.stream().map(List::copyOf).toList();
        this.hashTaggedKeys = this.clusterSeeds.stream().anyMatch(seeds -> !seeds.isEmpty());
        this.defaultTtl = defaultTtl;
        this.defaultMaxWait = defaultMaxWait;
        this.driftFactor = driftFactor;
        this.nodeTimeout = nodeTimeout;
        this.retry = retry;
        this.keyPrefix = keyPrefix;
        this.ticker = ticker;
        this.clientResources = clientResources;
        this.fencing = fencing;
        this.fencingClockFloor = fencingClockFloor;
        this.fenceCounterTtl = fenceCounterTtl;
    }

    /**
     * The quorum members, in the order given: each an independent Redis master, or for a member that is a Redis
     * Cluster its first seed (see {@link #clusterSeeds(int)}).
     */
    public List<RedisURI> nodes() {
        return nodes;
    }

    /** The seeds of member {@code member} (an index into {@link #nodes()}) if it is a Redis Cluster, else empty. */
    public List<RedisURI> clusterSeeds(int member) {
        return clusterSeeds.get(member);
    }

    /**
     * True when a member is a Redis Cluster: then the keys of one lock other than the lock key are hash-tagged into
     * its slot ({@code {<key>}:fence}, …) on every member; the lock key stays {@code <key>} (docs/FENCING.md, "Keys").
     */
    public boolean hashTaggedKeys() {
        return hashTaggedKeys;
    }

    /** The majority needed to acquire or extend: {@code nodes().size() / 2 + 1}. */
    public int quorum() {
        return quorumOf(nodes.size());
    }

    /** The majority of {@code nodes} nodes, {@code nodes / 2 + 1}: how many must agree (SPEC R4). */
    public static int quorumOf(int nodes) {
        return nodes / 2 + 1;
    }

    /** The TTL of every call and option that gives none. */
    public Duration defaultTtl() {
        return defaultTtl;
    }

    /** The wait of every call and option that may wait and gives none. */
    public Duration defaultMaxWait() {
        return defaultMaxWait;
    }

    public double driftFactor() {
        return driftFactor;
    }

    public Duration nodeTimeout() {
        return nodeTimeout;
    }

    public RetryPolicy retry() {
        return retry;
    }

    public String keyPrefix() {
        return keyPrefix;
    }

    public Ticker ticker() {
        return ticker;
    }

    /** True if leases carry fencing tokens (the default); false for the plain, wire-compatible algorithm. */
    public boolean fencing() {
        return fencing;
    }

    /**
     * True if the acquire script first raises the counter to at least {@code unix_seconds × 2^20} from the node's
     * clock, so a counter that expired, or that a node lost in a restart, still hands out larger tokens (FENCING.md,
     * "Restarts"). On by default with fencing.
     */
    public boolean fencingClockFloor() {
        return fencingClockFloor;
    }

    /**
     * How long a fencing counter lives on a node after its last grant or commit; {@link Duration#ZERO} when counters
     * never expire (also without fencing).
     */
    public Duration fenceCounterTtl() {
        return fenceCounterTtl;
    }

    /** True if waiting acquisitions subscribe to the resource's release channel and retry as soon as it is released. */
    public boolean wakeOnRelease() {
        return wakeOnRelease;
    }

    /** Lettuce resources supplied by the caller (not closed by {@link Redlock#close()}), if any. */
    public Optional<ClientResources> clientResources() {
        return Optional.ofNullable(clientResources);
    }
}
