package io.redlock.spring;

import java.util.List;

/**
 * The {@code redlock.*} properties are missing or contradict each other, or redlock-core refused a value (its
 * {@link io.redlock.RedlockConfigException} is the cause, its message part of this one). The message names every
 * property involved and never shows a password; {@link RedlockPropertiesFailureAnalyzer} turns it into Spring Boot's
 * start-up report.
 */
public class RedlockPropertiesException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final List<String> properties;
    private final String action;

    public RedlockPropertiesException(List<String> properties, String description, String action) {
        this(properties, description, action, null);
    }

    public RedlockPropertiesException(List<String> properties, String description, String action, Throwable cause) {
        super("Invalid Redlock configuration: " + description, cause);
        this.properties = List.copyOf(properties);
        this.action = action;
    }

    /** The properties at fault, e.g. {@code redlock.nodes}. */
    public List<String> properties() {
        return properties;
    }

    /** What the user should change. */
    public String action() {
        return action;
    }
}
