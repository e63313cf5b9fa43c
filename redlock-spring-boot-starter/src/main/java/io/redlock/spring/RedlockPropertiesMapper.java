package io.redlock.spring;

import io.lettuce.core.RedisURI;
import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.RetryPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns {@link RedlockProperties} into a {@link Redlock.Builder} and {@link LockOptions}, checking every value first so
 * that a mistake fails start-up with a {@link RedlockPropertiesException} naming the {@code redlock.*} property (never
 * a password). Public so that an application that defines its own {@code Redlock} bean can start from the properties.
 */
public final class RedlockPropertiesMapper {

    /** Which of the three exclusive modes the properties select. */
    public enum Mode {
        /** {@code redlock.nodes}: the Redlock algorithm over independent masters. */
        NODES,
        /** {@code redlock.single.address}: one Redis (SPEC S4). */
        SINGLE,
        /** {@code redlock.sentinel.*}: one sentinel-managed master (SPEC S5). */
        SENTINEL
    }

    static final String NODES = "redlock.nodes";
    static final String SINGLE_ADDRESS = "redlock.single.address";
    static final String SENTINEL_MASTER = "redlock.sentinel.master-name";
    static final String SENTINEL_ADDRESSES = "redlock.sentinel.addresses";

    /** Logged once at start-up in sentinel mode (SPEC S5). */
    static final String SENTINEL_CAVEAT = "Redlock on a sentinel-managed master (SPEC S5): a failover to an"
            + " asynchronously replicated replica can lose a lock: the master may acknowledge and crash before"
            + " replicating. Use redlock.nodes with independent masters where two holders at once are not acceptable.";

    private static final int DEFAULT_SENTINEL_PORT = 26379;

    private static final String CHOOSE_ONE = "Set exactly one of: " + NODES + " (Redis URIs of independent masters,"
            + " e.g. redis://10.0.0.1:6379,redis://10.0.0.2:6379,redis://10.0.0.3:6379), " + SINGLE_ADDRESS
            + " (one Redis, e.g. redis://localhost:6379), or " + SENTINEL_MASTER + " with " + SENTINEL_ADDRESSES
            + " (one sentinel-managed master).";

    private RedlockPropertiesMapper() {
    }

    /** The mode the properties select; throws if none or several are set. */
    public static Mode mode(RedlockProperties properties) {
        List<String> nodes = properties.getNodes();
        RedlockProperties.Sentinel sentinel = properties.getSentinel();
        List<String> set = new ArrayList<>();
        if (nodes != null && !nodes.isEmpty()) {
            set.add(NODES);
        }
        if (hasText(properties.getSingle().getAddress())) {
            set.add(SINGLE_ADDRESS);
        }
        if (hasText(sentinel.getMasterName())) {
            set.add(SENTINEL_MASTER);
        } else if (!sentinel.getAddresses().isEmpty()) {
            set.add(SENTINEL_ADDRESSES);
        }
        if (set.size() > 1) {
            throw new RedlockPropertiesException(set, joinNames(set) + (set.size() == 2 ? " are both set" : " are all set")
                    + ", but they select different modes and only one can be used", CHOOSE_ONE);
        }
        if (set.isEmpty()) {
            if (nodes != null) {
                throw new RedlockPropertiesException(List.of(NODES), NODES + " is empty: there is no Redis node to"
                        + " lock on", CHOOSE_ONE);
            }
            throw new RedlockPropertiesException(List.of(NODES, SINGLE_ADDRESS, SENTINEL_MASTER),
                    "no Redis node is configured: none of " + NODES + ", " + SINGLE_ADDRESS + " or " + SENTINEL_MASTER
                            + " is set", CHOOSE_ONE + " Or set redlock.enabled=false to turn the auto-configuration off.");
        }
        return set.get(0).equals(NODES) ? Mode.NODES : set.get(0).equals(SINGLE_ADDRESS) ? Mode.SINGLE : Mode.SENTINEL;
    }

    /**
     * A builder with the nodes and settings of {@code properties}; observer, lease listener and other code-only
     * settings are left for the caller. In sentinel mode this asks the sentinels for the master's address while
     * redlock-core cannot take a {@code redis-sentinel://} URI itself (see {@link #sentinelUri}).
     *
     * @throws RedlockPropertiesException naming the property at fault
     */
    public static Redlock.Builder builder(RedlockProperties properties) {
        checkTimings(properties);
        Redlock.Builder builder = Redlock.builder()
                .defaultTtl(properties.getDefaultTtl())
                .defaultMaxWait(properties.getDefaultWait())
                .driftFactor(properties.getDriftFactor())
                .nodeTimeout(properties.getNodeTimeout())
                .retry(RetryPolicy.uniform(properties.getRetry().getMinDelay(), properties.getRetry().getMaxDelay()))
                .keyPrefix(properties.getKeyPrefix())
                .fencing(properties.getFencing().isEnabled())
                .fencingClockFloor(properties.getFencing().isClockFloor())
                .wakeOnRelease(properties.isWakeOnRelease());
        switch (mode(properties)) {
            case NODES -> builder.nodes(nodes(properties.getNodes()));
            case SINGLE -> builder.node(single(properties.getSingle()));
            case SENTINEL -> builder.node(sentinelUri(properties));
            default -> throw new IllegalStateException();
        }
        return builder;
    }

    /**
     * The options {@code RedlockTemplate} and {@code @Locked} use when not told otherwise: the maximum hold time of
     * {@code properties}; TTL and wait are the Redlock's defaults ({@code redlock.default-ttl},
     * {@code redlock.default-wait}, set on it by {@link #builder(RedlockProperties)}).
     */
    public static LockOptions defaultLockOptions(RedlockProperties properties) {
        checkTimings(properties);
        return LockOptions.builder().maxHold(properties.getDefaultMaxHold()).build();
    }

    /** Checks the durations and numbers, naming the property at fault. */
    static void checkTimings(RedlockProperties p) {
        positive("redlock.default-ttl", p.getDefaultTtl());
        positive("redlock.node-timeout", p.getNodeTimeout());
        if (p.getDefaultTtl().compareTo(p.getNodeTimeout()) <= 0) {
            throw new RedlockPropertiesException(List.of("redlock.default-ttl", "redlock.node-timeout"),
                    "redlock.default-ttl (" + p.getDefaultTtl() + ") must be larger than redlock.node-timeout ("
                            + p.getNodeTimeout() + ")",
                    "Raise redlock.default-ttl (e.g. 30s) or lower redlock.node-timeout (default 50ms).");
        }
        if (p.getDefaultTtl().compareTo(Duration.ofDays(365)) > 0) {
            throw invalid("redlock.default-ttl", "must be at most 365 days, was " + p.getDefaultTtl());
        }
        if (p.getDefaultWait() == null || p.getDefaultWait().isNegative()) {
            throw invalid("redlock.default-wait", "must be zero or positive, was " + p.getDefaultWait());
        }
        positive("redlock.default-max-hold", p.getDefaultMaxHold());
        if (!(p.getDriftFactor() >= 0 && p.getDriftFactor() < 0.5)) {
            throw invalid("redlock.drift-factor", "must be in [0, 0.5), was " + p.getDriftFactor());
        }
        positive("redlock.retry.min-delay", p.getRetry().getMinDelay());
        if (p.getRetry().getMaxDelay() == null || p.getRetry().getMaxDelay().compareTo(p.getRetry().getMinDelay()) < 0) {
            throw new RedlockPropertiesException(List.of("redlock.retry.max-delay", "redlock.retry.min-delay"),
                    "redlock.retry.max-delay (" + p.getRetry().getMaxDelay() + ") must not be smaller than"
                            + " redlock.retry.min-delay (" + p.getRetry().getMinDelay() + ")",
                    "Set redlock.retry.max-delay to at least redlock.retry.min-delay.");
        }
        if (p.getKeyPrefix() == null) {
            throw invalid("redlock.key-prefix", "must not be null (leave it empty for none)");
        }
        if (p.getFencing().isClockFloor() && !p.getFencing().isEnabled()) {
            throw new RedlockPropertiesException(List.of("redlock.fencing.clock-floor", "redlock.fencing.enabled"),
                    "redlock.fencing.clock-floor=true needs redlock.fencing.enabled=true",
                    "Turn fencing on, or the clock floor off.");
        }
    }

    private static List<String> nodes(List<String> nodes) {
        List<String> trimmed = new ArrayList<>(nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            String node = nodes.get(i);
            if (!hasText(node)) {
                throw invalid(NODES + "[" + i + "]", "is blank; give a Redis URI such as redis://10.0.0.1:6379");
            }
            trimmed.add(node.trim());
        }
        return trimmed;
    }

    private static RedisURI single(RedlockProperties.Single single) {
        String address = single.getAddress().trim();
        RedisURI parsed;
        try {
            parsed = RedisURI.create(address.contains("://") ? address : "redis://" + address);
        } catch (RuntimeException e) {
            throw invalid(SINGLE_ADDRESS, "'" + Masking.scrub(address, single.getPassword())
                    + "' is not a Redis address (" + Masking.scrub(e.getMessage(), single.getPassword()) + ")");
        }
        String host = parsed.getHost();
        boolean portOnly = host != null && host.startsWith(":") && host.indexOf(':', 1) < 0; // "redis://:6379"
        if (parsed.getSocket() == null && (!hasText(host) || portOnly)) {
            throw invalid(SINGLE_ADDRESS, "'" + Masking.scrub(address, single.getPassword()) + "' has no host");
        }
        if (host != null && host.indexOf(':') >= 0 && host.indexOf(':') == host.lastIndexOf(':')) {
            // Lettuce keeps "host:notaport" as the host name; an IPv6 literal has several colons
            throw invalid(SINGLE_ADDRESS, "'" + Masking.scrub(address, single.getPassword()) + "' has a bad port");
        }
        RedisURI.Builder builder = RedisURI.builder(parsed);
        return withCredentials(builder, single.getPassword(), "redlock.single.database", single.getDatabase());
    }

    /**
     * The {@code redis-sentinel://} URI of {@code redlock.sentinel.*}: every sentinel (with the sentinel password),
     * the master id, the master's password and database.
     *
     * @throws RedlockPropertiesException if the sentinel settings are incomplete or malformed
     */
    public static RedisURI sentinelUri(RedlockProperties properties) {
        RedlockProperties.Sentinel sentinel = properties.getSentinel();
        if (!hasText(sentinel.getMasterName())) {
            throw new RedlockPropertiesException(List.of(SENTINEL_MASTER, SENTINEL_ADDRESSES),
                    SENTINEL_ADDRESSES + " is set but " + SENTINEL_MASTER + " is not",
                    "Set " + SENTINEL_MASTER + " to the name the sentinels know the master by (e.g. mymaster).");
        }
        if (sentinel.getAddresses().isEmpty()) {
            throw new RedlockPropertiesException(List.of(SENTINEL_ADDRESSES, SENTINEL_MASTER),
                    SENTINEL_MASTER + " is set but " + SENTINEL_ADDRESSES + " lists no sentinel",
                    "Set " + SENTINEL_ADDRESSES + " to the sentinels as host:port, e.g."
                            + " 10.0.0.1:26379,10.0.0.2:26379,10.0.0.3:26379.");
        }
        RedisURI.Builder builder = RedisURI.builder();
        List<String> addresses = sentinel.getAddresses();
        for (int i = 0; i < addresses.size(); i++) {
            String address = addresses.get(i);
            String property = SENTINEL_ADDRESSES + "[" + i + "]";
            if (!hasText(address)) {
                throw invalid(property, "is blank; give a sentinel as host:port");
            }
            String hostPort = address.trim();
            if (hostPort.contains("://")) {
                throw invalid(property, "'" + Masking.maskUri(hostPort) + "' must be host:port, not a URI");
            }
            String host = hostPort;
            int port = DEFAULT_SENTINEL_PORT;
            int colon = hostPort.lastIndexOf(':');
            boolean bracketed = hostPort.startsWith("[");
            if (bracketed || colon >= 0 && colon == hostPort.indexOf(':')) {
                int close = bracketed ? hostPort.indexOf(']') : -1;
                if (bracketed && close < 0) {
                    throw invalid(property, "'" + hostPort + "' has no closing ']'");
                }
                host = bracketed ? hostPort.substring(1, close) : hostPort.substring(0, colon);
                String portText = bracketed ? (close + 1 < hostPort.length() && hostPort.charAt(close + 1) == ':'
                        ? hostPort.substring(close + 2) : "") : hostPort.substring(colon + 1);
                if (!portText.isEmpty()) {
                    try {
                        port = Integer.parseInt(portText);
                    } catch (NumberFormatException e) {
                        port = -1;
                    }
                    if (port < 1 || port > 65535) {
                        throw invalid(property, "'" + hostPort + "' has a bad port");
                    }
                }
            }
            if (host.isBlank()) {
                throw invalid(property, "'" + hostPort + "' has no host");
            }
            if (hasText(sentinel.getSentinelPassword())) {
                builder.withSentinel(host, port, sentinel.getSentinelPassword());
            } else {
                builder.withSentinel(host, port);
            }
        }
        builder.withSentinelMasterId(sentinel.getMasterName().trim());
        return withCredentials(builder, sentinel.getPassword(), "redlock.sentinel.database", sentinel.getDatabase());
    }

    private static RedisURI withCredentials(RedisURI.Builder builder, String password, String databaseProperty,
            Integer database) {
        if (hasText(password)) {
            builder.withPassword((CharSequence) password);
        }
        if (database != null) {
            if (database < 0) {
                throw invalid(databaseProperty, "must not be negative, was " + database);
            }
            builder.withDatabase(database);
        }
        return builder.build();
    }

    private static void positive(String property, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw invalid(property, "must be a positive duration (e.g. 30s, 500ms), was " + value);
        }
    }

    private static RedlockPropertiesException invalid(String property, String problem) {
        return new RedlockPropertiesException(List.of(property), property + " " + problem,
                "Correct " + property + ".");
    }

    private static String joinNames(List<String> names) {
        if (names.size() == 1) {
            return names.get(0);
        }
        return String.join(", ", names.subList(0, names.size() - 1)) + " and " + names.get(names.size() - 1);
    }

    static boolean hasText(String text) {
        return text != null && !text.isBlank();
    }
}
