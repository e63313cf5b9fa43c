package io.redlock;

/** The work run under a lock threw a checked exception; it is the cause. Unchecked exceptions pass through as they are. */
public class LeaseWorkException extends RedlockException {

    private static final long serialVersionUID = 1L;

    public LeaseWorkException(String resource, Exception cause) {
        super("work under the lock on '" + resource + "' failed: " + cause, cause);
    }
}
