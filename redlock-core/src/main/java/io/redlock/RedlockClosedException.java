package io.redlock;

/** The {@link Redlock} was closed: it takes no new acquisitions, extensions or other calls. */
public class RedlockClosedException extends RedlockException {

    private static final long serialVersionUID = 1L;

    public RedlockClosedException() {
        super("this Redlock is closed");
    }
}
