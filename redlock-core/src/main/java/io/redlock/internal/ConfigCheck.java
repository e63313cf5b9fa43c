package io.redlock.internal;

import io.lettuce.core.RedisURI;
import io.redlock.RedlockConfig;
import io.redlock.RedlockConfigException;
import io.redlock.Secrets;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Validation of settings and call arguments; every failure is a {@link RedlockConfigException} naming the value. */
public final class ConfigCheck {

    /** More independent masters than this make no sense for a lock (and release notifications count nodes in a long). */
    static final int MAX_NODES = 64;

    private static final Duration ONE_MILLI = Duration.ofMillis(1);
    private static final int NANOS_PER_MILLI = 1_000_000;
    private static final String FLOOR_FOR_EXPIRY = "fencing counters that expire (fenceCounterTtl, default "
            + RedlockConfig.DEFAULT_FENCE_COUNTER_TTL.toHours() + " h) need the clock floor, which brings an expired"
            + " counter back above the tokens it issued: keep fencingClockFloor on, or keep counters forever with"
            + " fenceCounterTtl(Duration.ZERO)";

    /** The setting a node URI or the node list belongs to. */
    private static final List<String> NODES = List.of("nodes");

    private ConfigCheck() {
    }

    /**
     * Parses node URI strings; a bad one fails with its text (credentials masked) and the parser's reason. A string
     * starting with {@link RedlockConfig#CLUSTER_PREFIX} is a Redis Cluster member: its seeds, each a plain
     * {@code redis://} or {@code rediss://} URI.
     */
    public static List<ParsedNode> parseNodes(List<String> uris) {
        List<ParsedNode> parsed = new ArrayList<>(uris.size());
        for (String uri : uris) {
            if (uri == null || uri.isBlank()) {
                throw new RedlockConfigException(NODES, "node URI must not be blank, was '" + uri + "'");
            }
            String trimmed = uri.trim();
            if (!trimmed.startsWith(RedlockConfig.CLUSTER_PREFIX)) {
                parsed.add(ParsedNode.server(parseUri(trimmed)));
                continue;
            }
            List<RedisURI> seeds = new ArrayList<>();
            String list = trimmed.substring(RedlockConfig.CLUSTER_PREFIX.length());
            for (String seed : list.split(Pattern.quote(RedlockConfig.CLUSTER_SEED_SEPARATOR), -1)) {
                seeds.add(clusterSeed(seed.trim()));
            }
            parsed.add(new ParsedNode(seeds.get(0), seeds));
        }
        return parsed;
    }

    private static RedisURI clusterSeed(String seed) {
        if (seed.isEmpty()) {
            throw new RedlockConfigException(NODES, "a cluster member needs seed URIs after '"
                    + RedlockConfig.CLUSTER_PREFIX + "', separated by '" + RedlockConfig.CLUSTER_SEED_SEPARATOR
                    + "'; one was empty");
        }
        RedisURI uri = parseUri(seed);
        if (uri.getSocket() != null || uri.getSentinelMasterId() != null) {
            throw new RedlockConfigException(NODES, "invalid cluster seed '" + Secrets.of(List.of(seed)).scrub(seed)
                    + "': a seed is redis://host:port or rediss://host:port");
        }
        return uri;
    }

    private static RedisURI parseUri(String uri) {
        Secrets secrets = Secrets.of(List.of(uri)); // Lettuce's messages may quote a piece of the password
        String shown = secrets.scrub(uri);
        RedisURI redisUri;
        try {
            redisUri = RedisURI.create(uri);
        } catch (RuntimeException e) {
            throw new RedlockConfigException(NODES, "invalid node URI '" + shown + "': "
                    + secrets.scrub(String.valueOf(e.getMessage())));
        }
        if (redisUri.getSocket() == null && redisUri.getSentinelMasterId() == null
                && (redisUri.getHost() == null || redisUri.getHost().isBlank())) {
            throw new RedlockConfigException(NODES, "invalid node URI '" + shown + "': no host");
        }
        if (redisUri.getSocket() != null
                && !io.lettuce.core.resource.Transports.NativeTransports.isDomainSocketSupported()) {
            throw new RedlockConfigException(NODES, "invalid node URI '" + shown + "': a Unix socket"
                    + " needs Netty's native transport (epoll or kqueue), which is not on the class path; use"
                    + " redis://host:port");
        }
        int port = explicitPort(uri);
        if (port == 0) {
            // Lettuce takes port 0 for "no port" and would connect to 6379 instead
            throw new RedlockConfigException(NODES, "invalid node URI '" + shown + "': port "
                    + port + " is outside 1-65535");
        }
        String host = redisUri.getHost();
        if (host != null && host.indexOf(':') >= 0 && host.indexOf(':') == host.lastIndexOf(':')) {
            // Lettuce keeps "host:notaport" as the host name; an IPv6 literal has several colons
            throw new RedlockConfigException(NODES, "invalid node URI '" + shown + "': bad port in '"
                    + secrets.scrub(host) + "'");
        }
        return redisUri;
    }

    /** The port written in {@code uri}, -1 if none (or not readable; Lettuce's parse is the judge of that). */
    private static int explicitPort(String uri) {
        try {
            return java.net.URI.create(uri).getPort();
        } catch (IllegalArgumentException notForJava) {
            return -1;
        }
    }

    /**
     * At least one node and no server listed twice, as a node or as a cluster seed (Redlock needs independent
     * masters, SPEC R1). That two seeds name the same cluster shows only once connected: doctor reports it.
     */
    public static void nodes(List<ParsedNode> nodes) {
        if (nodes.isEmpty()) {
            throw new RedlockConfigException(NODES, "no nodes: give at least one Redis URI with nodes(...) or node(...)");
        }
        if (nodes.size() > MAX_NODES) {
            throw new RedlockConfigException(NODES, "at most " + MAX_NODES + " nodes, was " + nodes.size());
        }
        Set<String> seen = new HashSet<>();
        for (ParsedNode node : nodes) {
            for (RedisURI uri : node.uris()) {
                String name = Redaction.nodeName(uri);
                if (!seen.add(name)) {
                    throw new RedlockConfigException(NODES, "node " + name + " is listed twice; Redlock needs"
                            + " independent nodes");
                }
            }
        }
    }

    /** The minimum hold time: not negative, at most the maximum hold time. */
    public static void minHold(Duration minHold, Duration maxHold) {
        if (minHold == null) {
            throw new RedlockConfigException(List.of("minHold"), "minHold must not be null (Duration.ZERO for none)");
        }
        if (minHold.isNegative()) {
            throw new RedlockConfigException(List.of("minHold"), "minHold must not be negative, was " + minHold);
        }
        if (minHold.compareTo(maxHold) > 0) {
            throw new RedlockConfigException(List.of("minHold", "maxHold"), "minHold must be at most maxHold "
                    + maxHold + ", was " + minHold);
        }
    }

    public static void positive(String name, Duration value) {
        if (value == null) {
            throw new RedlockConfigException(List.of(name), name + " must not be null");
        }
        if (value.isNegative() || value.isZero()) {
            throw new RedlockConfigException(List.of(name), name + " must be positive, was " + value);
        }
    }

    /**
     * The fencing counter's settings: the clock floor and the counter horizon only with fencing; a horizon of zero
     * (forever) or at least {@link RedlockConfig#MIN_FENCE_COUNTER_TTL} in whole milliseconds; counters that expire only
     * with the clock floor, which brings them back above the tokens they issued. {@code clockFloor} is null when not
     * given, {@code ttlSet} false when the horizon was not given.
     */
    public static void fenceCounter(boolean fencing, Boolean clockFloor, boolean ttlSet, Duration ttl) {
        if (!fencing && Boolean.TRUE.equals(clockFloor)) {
            throw new RedlockConfigException(List.of("fencingClockFloor", "fencing"),
                    "fencingClockFloor(true) needs fencing(true)");
        }
        if (!ttlSet) {
            if (fencing && Boolean.FALSE.equals(clockFloor)) {
                throw new RedlockConfigException(List.of("fencingClockFloor", "fenceCounterTtl"), FLOOR_FOR_EXPIRY);
            }
            return;
        }
        if (!fencing) {
            throw new RedlockConfigException(List.of("fenceCounterTtl", "fencing"), "fenceCounterTtl needs fencing(true)");
        }
        if (ttl == null) {
            throw new RedlockConfigException(List.of("fenceCounterTtl"),
                    "fenceCounterTtl must not be null (Duration.ZERO keeps counters forever)");
        }
        if (ttl.isZero()) {
            return;
        }
        if (ttl.compareTo(RedlockConfig.MIN_FENCE_COUNTER_TTL) < 0 || ttl.toNanosPart() % NANOS_PER_MILLI != 0) {
            throw new RedlockConfigException(List.of("fenceCounterTtl"), "fenceCounterTtl must be zero (forever) or at"
                    + " least " + RedlockConfig.MIN_FENCE_COUNTER_TTL.toSeconds() + " s in whole milliseconds, was " + ttl);
        }
        if (Boolean.FALSE.equals(clockFloor)) {
            throw new RedlockConfigException(List.of("fencingClockFloor", "fenceCounterTtl"), FLOOR_FOR_EXPIRY);
        }
    }

    /** The TTL must be a whole number of milliseconds of at least 1 ms and larger than the per-node timeout. */
    public static void ttlAboveNodeTimeout(String name, Duration ttl, Duration nodeTimeout) {
        positive(name, ttl);
        if (ttl.compareTo(ONE_MILLI) < 0) {
            // PX takes milliseconds: anything shorter would be sent as PX 0, which Redis rejects
            throw new RedlockConfigException(List.of(name), name + " must be at least 1 ms (PX takes milliseconds), was " + ttl);
        }
        if (ttl.toNanosPart() % NANOS_PER_MILLI != 0) {
            // PX would silently drop the fraction: the caller would hold the lock for less than asked
            throw new RedlockConfigException(List.of(name), name + " must be a whole number of milliseconds, was " + ttl);
        }
        if (ttl.compareTo(nodeTimeout) <= 0) {
            throw new RedlockConfigException(List.of(name, "nodeTimeout"),
                    name + " must be larger than the per-node timeout " + nodeTimeout + ", was " + ttl);
        }
        if (ttl.compareTo(Duration.ofDays(365)) > 0) {
            throw new RedlockConfigException(List.of(name), name + " must be at most 365 days, was " + ttl);
        }
    }

    public static void driftFactor(double driftFactor) {
        if (!(driftFactor >= 0 && driftFactor < 0.5)) {
            throw new RedlockConfigException(List.of("driftFactor"), "driftFactor must be in [0, 0.5), was " + driftFactor);
        }
    }

    static void resource(String resource) {
        if (resource == null || resource.isBlank()) {
            throw new RedlockConfigException("resource must not be blank, was '" + resource + "'");
        }
        int bytes = resource.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > RedlockConfig.MAX_RESOURCE_BYTES) {
            throw new RedlockConfigException("resource must be at most " + RedlockConfig.MAX_RESOURCE_BYTES
                    + " bytes in UTF-8, was " + bytes + " bytes ('" + resource.substring(0, 32) + "...')");
        }
        for (String suffix : RedlockConfig.RESERVED_SUFFIXES) {
            if (resource.endsWith(suffix)) {
                throw new RedlockConfigException("resource must not end with '" + suffix + "', was '" + resource
                        + "': the names ending with " + RedlockConfig.RESERVED_SUFFIXES + " are the library's own"
                        + " keys beside a lock key ('" + resource.substring(0, resource.length() - suffix.length())
                        + "' keeps its " + suffix.substring(1) + " there)");
            }
        }
    }

    /**
     * The resources of one lock of several: at least one, at most {@link RedlockConfig#MAX_RESOURCES_AT_ONCE}, each a
     * valid resource, none twice. Returns them as an immutable list in the caller's order.
     */
    static List<String> resources(Collection<String> resources) {
        if (resources == null || resources.isEmpty()) {
            throw new RedlockConfigException("resources must name at least one resource, was " + resources);
        }
        if (resources.size() > RedlockConfig.MAX_RESOURCES_AT_ONCE) {
            throw new RedlockConfigException("a lock of several resources takes at most "
                    + RedlockConfig.MAX_RESOURCES_AT_ONCE + " of them, was " + resources.size());
        }
        Set<String> seen = new HashSet<>();
        for (String resource : resources) {
            resource(resource);
            if (!seen.add(resource)) {
                throw new RedlockConfigException("resources must not name one resource twice, '" + resource
                        + "' was");
            }
        }
        return List.copyOf(resources);
    }

    /** A semaphore's permits: at least 1, at most {@link RedlockConfig#MAX_PERMITS}. */
    static void permits(int permits) {
        if (permits < 1 || permits > RedlockConfig.MAX_PERMITS) {
            throw new RedlockConfigException("permits must be between 1 and " + RedlockConfig.MAX_PERMITS + ", was "
                    + permits);
        }
    }

    static void maxWait(Duration maxWait) {
        maxWait("maxWait", maxWait);
    }

    public static void maxWait(String name, Duration maxWait) {
        if (maxWait == null) {
            throw new RedlockConfigException(List.of(name), name + " must not be null");
        }
        if (maxWait.isNegative()) {
            throw new RedlockConfigException(List.of(name), name + " must not be negative, was " + maxWait);
        }
    }

    /**
     * A kept-alive lease needs an extension to start while a whole round still fits in the validity left right after
     * the previous one: {@code extendWhenRemaining} at most {@code latest} (see {@link LockPlan}).
     */
    static void extendWhenRemaining(Duration extendWhenRemaining, Duration ttl, Duration latest) {
        positive("extendWhenRemaining", extendWhenRemaining);
        if (latest.isNegative() || latest.isZero()) {
            throw new RedlockConfigException(List.of("ttl"), "ttl " + ttl + " is too short to be kept alive: right after an extension"
                    + " no validity is left (ttl - drift - per-node timeout = " + latest + ")");
        }
        if (extendWhenRemaining.compareTo(latest) > 0) {
            throw new RedlockConfigException(List.of("extendWhenRemaining"), "extendWhenRemaining must be at most " + latest + " for a ttl of " + ttl
                    + " (ttl - drift - per-node timeout: the validity left right after an extension), was "
                    + extendWhenRemaining);
        }
    }
}
