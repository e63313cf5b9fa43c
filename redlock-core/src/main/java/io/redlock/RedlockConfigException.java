package io.redlock;

import java.util.List;

/**
 * A configuration value or a call argument is invalid. The message names the setting and shows the bad value
 * (never a password); {@link #settings()} names the settings at fault, as the builders call them, so that a layer
 * that binds them from elsewhere (Spring properties, command options) can name its own.
 */
public class RedlockConfigException extends RedlockException {

    private static final long serialVersionUID = 1L;

    /** The settings at fault, the one to change first; empty when it is about no setting. */
    private final List<String> settings;

    public RedlockConfigException(String message) {
        this(List.of(), message);
    }

    /**
     * @param settings the settings at fault as the builders name them ({@code "defaultTtl"}, {@code "nodes"},
     *                 {@code "retry.maxDelay"}...), the one to change first
     */
    public RedlockConfigException(List<String> settings, String message) {
        super(message);
        this.settings = List.copyOf(settings);
    }

    /**
     * The settings at fault, as the builders name them, the one to change first: {@code "nodes"} for a node URI or
     * the node list, {@code "defaultTtl"} and {@code "nodeTimeout"} for a TTL not above the per-node timeout, and so
     * on. Empty for a call argument that is no setting (a resource name, a lease value).
     */
    public List<String> settings() {
        return settings;
    }
}
