package io.redlock.spring;

import io.redlock.RedlockConfigException;
import io.redlock.Secrets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Core's {@link RedlockConfigException}, the one judge of what is valid, as a {@link RedlockPropertiesException}
 * naming the {@code redlock.*} property at fault, with every password of the properties hidden. Runs at start-up, on
 * the thread that creates the beans.
 */
final class ConfigFailures {

    private ConfigFailures() {
    }

    /** Core's settings, as {@link RedlockConfigException#settings()} names them, and the properties they come from. */
    private static final Map<String, String> PROPERTIES = Map.ofEntries(
            Map.entry("defaultTtl", "redlock.default-ttl"),
            Map.entry("nodeTimeout", "redlock.node-timeout"),
            Map.entry("defaultMaxWait", "redlock.default-wait"),
            Map.entry("driftFactor", "redlock.drift-factor"),
            Map.entry("retry.minDelay", "redlock.retry.min-delay"),
            Map.entry("retry.maxDelay", "redlock.retry.max-delay"),
            Map.entry("keyPrefix", "redlock.key-prefix"),
            Map.entry("fencingClockFloor", "redlock.fencing.clock-floor"),
            Map.entry("fenceCounterTtl", "redlock.fencing.counter-ttl"),
            Map.entry("fencing", "redlock.fencing.enabled"),
            Map.entry("maxHold", "redlock.default-max-hold"));

    /** What to change, where "Correct the property." says too little: by the settings at fault. */
    private static final Map<List<String>, String> ACTIONS = Map.of(
            List.of("defaultTtl", "nodeTimeout"),
            "Raise redlock.default-ttl (e.g. 30s) or lower redlock.node-timeout (default 50ms).",
            List.of("retry.maxDelay", "retry.minDelay"),
            "Set redlock.retry.max-delay to at least redlock.retry.min-delay.",
            List.of("fencingClockFloor", "fencing"), "Turn fencing on, or the clock floor off.",
            List.of("fencingClockFloor", "fenceCounterTtl"),
            "Keep redlock.fencing.clock-floor on, or set redlock.fencing.counter-ttl=0 to keep counters forever.",
            List.of("fenceCounterTtl", "fencing"), "Turn fencing on, or remove redlock.fencing.counter-ttl.");

    /**
     * Core's {@link RedlockConfigException} as a failure naming the {@code redlock.*} properties behind the settings
     * it names ({@link RedlockConfigException#settings()}), with core's message (any password of the properties
     * hidden) and what to change. One about the nodes names the property of the mode, or the entry of
     * {@code redlock.nodes} it quotes.
     */
    static RedlockPropertiesException of(RedlockConfigException e, RedlockProperties properties) {
        String message = secrets(properties).scrub(e.getMessage());
        List<String> names = new ArrayList<>();
        for (String setting : e.settings()) {
            names.add(setting.equals("nodes") ? nodesProperty(properties, e.getMessage())
                    : PROPERTIES.getOrDefault(setting, "redlock." + setting));
        }
        if (names.isEmpty()) {
            names.add(nodesProperty(properties, e.getMessage()));
        }
        String action = ACTIONS.getOrDefault(e.settings(), "Correct " + names.get(0) + ".");
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
}
