package io.redlock;

/**
 * A configuration value or a call argument is invalid. The message names the setting and shows the bad value
 * (never a password).
 */
public class RedlockConfigException extends RedlockException {

    private static final long serialVersionUID = 1L;

    public RedlockConfigException(String message) {
        super(message);
    }
}
