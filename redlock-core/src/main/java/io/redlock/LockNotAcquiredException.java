package io.redlock;

import java.time.Duration;

/** {@code withLock} could not acquire the lock within its maximum wait: another client holds it, or too few nodes answer. */
public class LockNotAcquiredException extends RedlockException {

    private static final long serialVersionUID = 1L;

    private final String resource;
    private final boolean nodesUnavailable;

    public LockNotAcquiredException(String resource, Duration maxWait) {
        this(resource, maxWait, false);
    }

    /** {@code nodesUnavailable}: the last round could not reach a majority (an outage, not contention). */
    public LockNotAcquiredException(String resource, Duration maxWait, boolean nodesUnavailable) {
        super("could not acquire the lock on '" + resource + "' within " + maxWait
                + (nodesUnavailable ? ": too few nodes answered (down, timed out or failing)" : ""));
        this.resource = resource;
        this.nodesUnavailable = nodesUnavailable;
    }

    public String resource() {
        return resource;
    }

    /**
     * True if the last acquisition round could not reach a majority because too many nodes were down, timed out or
     * failed: an outage, not another client holding the lock.
     */
    public boolean nodesUnavailable() {
        return nodesUnavailable;
    }
}
