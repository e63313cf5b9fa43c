package io.redlock.spring;

import io.redlock.RedlockConfigException;
import io.redlock.Secrets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Core's {@link RedlockConfigException}, the one judge of what is valid, as a {@link RedlockPropertiesException}
 * naming the {@code redlock.*} property at fault, with every password of the properties hidden. Runs at start-up, on
 * the thread that creates the beans.
 */
final class ConfigFailures {

    private ConfigFailures() {
    }

    /**
     * Core's {@link RedlockConfigException} as a failure naming the {@code redlock.*} properties at fault, with core's
     * message (any password of the properties hidden) and what to change. The message names core's setting
     * ({@code defaultTtl}, {@code maxHold}...), which {@link ConfigProperty} maps to the property; one about the nodes
     * names the property of the mode, or the entry of {@code redlock.nodes} it quotes.
     */
    static RedlockPropertiesException of(RedlockConfigException e, RedlockProperties properties) {
        Secrets secrets = secrets(properties);
        String message = secrets.scrub(e.getMessage());
        ConfigProperty known = ConfigProperty.of(e.getMessage());
        List<String> names = known != null ? known.properties : List.of(nodesProperty(properties, e.getMessage()));
        String action = known != null && known.action != null ? known.action : "Correct " + names.get(0) + ".";
        return new RedlockPropertiesException(names, names.get(0) + ": " + message, action, e);
    }

    /** The property behind a core message about the nodes: the entry of redlock.nodes it quotes, or the mode's. */
    private static String nodesProperty(RedlockProperties properties, String message) {
        RedlockPropertiesMapper.Mode mode;
        try {
            mode = RedlockPropertiesMapper.mode(properties);
        } catch (RedlockPropertiesException noMode) {
            return RedlockPropertiesMapper.NODES;
        }
        if (mode == RedlockPropertiesMapper.Mode.SINGLE) {
            return RedlockPropertiesMapper.SINGLE_ADDRESS;
        }
        if (mode == RedlockPropertiesMapper.Mode.SENTINEL) {
            return RedlockPropertiesMapper.SENTINEL_MASTER;
        }
        List<String> nodes = properties.getNodes();
        for (int i = 0; i < nodes.size(); i++) {
            String node = nodes.get(i);
            if (node != null && message.contains("'" + Secrets.of(List.of(node)).scrub(node) + "'")) {
                return RedlockPropertiesMapper.NODES + "[" + i + "]";
            }
        }
        return RedlockPropertiesMapper.NODES;
    }

    /** Every secret of the properties: the passwords in the node URIs and addresses, and the password settings. */
    static Secrets secrets(RedlockProperties properties) {
        List<String> texts = new ArrayList<>();
        if (properties.getNodes() != null) {
            texts.addAll(properties.getNodes());
        }
        texts.add(properties.getSingle().getAddress());
        texts.addAll(properties.getSentinel().getAddresses());
        return Secrets.of(texts).withPasswords(Arrays.asList(properties.getSingle().getPassword(),
                properties.getSentinel().getPassword(), properties.getSentinel().getSentinelPassword()));
    }

    /** Core's setting names in its messages, and the properties they come from. */
    private enum ConfigProperty {
        TTL_VS_TIMEOUT("defaultTtl must be larger than the per-node timeout",
                "Raise redlock.default-ttl (e.g. 30s) or lower redlock.node-timeout (default 50ms).",
                "redlock.default-ttl", "redlock.node-timeout"),
        DEFAULT_TTL("defaultTtl ", null, "redlock.default-ttl"),
        NODE_TIMEOUT("nodeTimeout ", null, "redlock.node-timeout"),
        DEFAULT_WAIT("defaultMaxWait ", null, "redlock.default-wait"),
        DRIFT_FACTOR("driftFactor ", null, "redlock.drift-factor"),
        RETRY_MIN("retry min delay ", null, "redlock.retry.min-delay"),
        RETRY_MAX("retry max delay ", "Set redlock.retry.max-delay to at least redlock.retry.min-delay.",
                "redlock.retry.max-delay", "redlock.retry.min-delay"),
        KEY_PREFIX("keyPrefix ", null, "redlock.key-prefix"),
        CLOCK_FLOOR("fencingClockFloor", "Turn fencing on, or the clock floor off.", "redlock.fencing.clock-floor",
                "redlock.fencing.enabled"),
        MAX_HOLD("maxHold ", null, "redlock.default-max-hold");

        private final String prefix;
        private final String action;
        private final List<String> properties;

        ConfigProperty(String prefix, String action, String... properties) {
            this.prefix = prefix;
            this.action = action;
            this.properties = List.of(properties);
        }

        /** The setting a core message starts with, or null (the nodes). */
        static ConfigProperty of(String message) {
            for (ConfigProperty setting : values()) {
                if (message != null && message.startsWith(setting.prefix)) {
                    return setting;
                }
            }
            return null;
        }
    }

}
