package io.redlock;

import java.time.Duration;

/** {@code withLock} could not acquire the lock within its maximum wait: another client holds it, or too few nodes answer. */
public class LockNotAcquiredException extends RedlockException {

    private static final long serialVersionUID = 1L;

    private final String resource;

    public LockNotAcquiredException(String resource, Duration maxWait) {
        super("could not acquire the lock on '" + resource + "' within " + maxWait);
        this.resource = resource;
    }

    public String resource() {
        return resource;
    }
}
