package io.redlock.spring;

import io.lettuce.core.RedisURI;
import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.RedlockBuilder;
import io.redlock.RedlockConfigException;
import io.redlock.RetryPolicy;
import io.redlock.Secrets;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns {@link RedlockProperties} into a {@link RedlockBuilder} and {@link LockOptions}. The values are checked where
 * they are used, by redlock-core; what only the starter can know is checked here: which {@code redlock.*} properties
 * select a mode and exclude each other, the sentinel settings, the databases. A mistake fails start-up with a
 * {@link RedlockPropertiesException} naming the {@code redlock.*} property (never a password). Public so that an
 * application that defines its own {@code Redlock} bean can start from the properties.
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
        SentinelProperties sentinel = properties.getSentinel();
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
                return Mode.NODES; // set, but to no node: core says what is wrong with that
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
     * redlock-core cannot take a {@code redis-sentinel://} URI itself (see {@link #sentinelUri}). The values are
     * checked by redlock-core ({@link RedlockBuilder#config()}), the one place that knows what is valid; its
     * {@link RedlockConfigException} comes back as a {@link RedlockPropertiesException} naming the property
     * ({@link ConfigFailures}).
     *
     * @throws RedlockPropertiesException naming the property at fault
     */
    public static RedlockBuilder builder(RedlockProperties properties) {
        return builder(properties, List.of());
    }

    /**
     * {@link #builder(RedlockProperties)}, but the nodes are {@code connectionNodes} (those of the
     * {@link RedlockConnectionDetails} beans) when there are any, whatever mode the properties select.
     *
     * @throws RedlockPropertiesException naming the property at fault
     */
    static RedlockBuilder builder(RedlockProperties properties, List<String> connectionNodes) {
        Mode mode = connectionNodes.isEmpty() ? mode(properties) : Mode.NODES;
        RedlockBuilder builder;
        try {
            builder = Redlock.builder()
                    .defaultTtl(properties.getDefaultTtl())
                    .defaultMaxWait(properties.getDefaultWait())
                    .driftFactor(properties.getDriftFactor())
                    .nodeTimeout(properties.getNodeTimeout())
                    .retry(retry(properties.getRetry()))
                    .keyPrefix(properties.getKeyPrefix())
                    .fencing(properties.getFencing().isEnabled())
                    .wakeOnRelease(properties.isWakeOnRelease());
            RedlockProperties.Fencing fencing = properties.getFencing();
            if (fencing.getClockFloor() != null) {
                builder.fencingClockFloor(fencing.getClockFloor());
            }
            if (fencing.getCounterTtl() != null) {
                builder.fenceCounterTtl(fencing.getCounterTtl());
            }
            switch (mode) {
                case NODES -> builder.nodes(connectionNodes.isEmpty() ? properties.getNodes() : connectionNodes);
                case SINGLE -> builder.node(single(properties));
                case SENTINEL -> builder.node(sentinelUri(properties));
                default -> throw new IllegalStateException();
            }
            builder.config(); // core checks every value now, so the failure names a property
        } catch (RedlockConfigException e) {
            throw ConfigFailures.of(e, properties);
        }
        return builder;
    }

    /**
     * The options {@code RedlockTemplate} and {@code @Locked} use when not told otherwise: the maximum hold time of
     * {@code properties}; TTL and wait are the Redlock's defaults ({@code redlock.default-ttl},
     * {@code redlock.default-wait}, set on it by {@link #builder(RedlockProperties)}).
     *
     * @throws RedlockPropertiesException naming the property at fault
     */
    public static LockOptions defaultLockOptions(RedlockProperties properties) {
        try {
            return LockOptions.builder().maxHold(properties.getDefaultMaxHold()).build();
        } catch (RedlockConfigException e) {
            throw ConfigFailures.of(e, properties);
        }
    }

    /**
     * The retry policy; an unset (empty) delay names its property, since core takes no null policy bound.
     */
    private static RetryPolicy retry(RedlockProperties.Retry retry) {
        if (retry.getMinDelay() == null) {
            throw invalid("redlock.retry.min-delay", "must be set (e.g. 50ms)");
        }
        if (retry.getMaxDelay() == null) {
            throw invalid("redlock.retry.max-delay", "must be set (e.g. 200ms)");
        }
        return RetryPolicy.uniform(retry.getMinDelay(), retry.getMaxDelay());
    }

    /**
     * The node of {@code redlock.single.*}: the address as core parses a node URI ({@code redis://} assumed when the
     * address has no scheme), with the password and database of their own properties.
     */
    private static RedisURI single(RedlockProperties properties) {
        SingleProperties single = properties.getSingle();
        String address = single.getAddress().trim();
        RedisURI parsed = Redlock.builder().nodes(address.contains("://") ? address : "redis://" + address).config()
                .nodes().get(0);
        return withCredentials(RedisURI.builder(parsed), single.getPassword(), "redlock.single.database",
                single.getDatabase());
    }

    /**
     * The {@code redis-sentinel://} URI of {@code redlock.sentinel.*}: every sentinel (with the sentinel password),
     * the master id, the master's password and database.
     *
     * @throws RedlockPropertiesException if the sentinel settings are incomplete or malformed
     */
    public static RedisURI sentinelUri(RedlockProperties properties) {
        SentinelProperties sentinel = properties.getSentinel();
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
                throw invalid(property, "'" + Secrets.mask(hostPort) + "' must be host:port, not a URI");
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
