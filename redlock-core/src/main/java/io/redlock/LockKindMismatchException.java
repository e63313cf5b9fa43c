package io.redlock;

/**
 * A resource is held as one kind of lock and was asked for as another: a semaphore's resource taken as a lock (or a
 * read lock, or a lock of several resources), a lock's as a semaphore, or a semaphore asked for with other permits
 * than it holds. One resource name is one kind of lock, with one number of permits; mixing them would make both
 * promises false, so the node that sees it writes nothing and the acquisition releases what other nodes granted.
 *
 * <p>Found when a node that holds the resource answers before the round is decided (with the plain algorithm,
 * {@code fencing(false)}, a lock of one resource is a bare {@code SET NX}, which sees a semaphore as busy).
 */
public class LockKindMismatchException extends RedlockException {

    private static final long serialVersionUID = 1L;

    private final String resource;

    /** @param found what the node said: how the resource is held and how it was asked for */
    public LockKindMismatchException(String resource, String found) {
        super("'" + resource + "' is " + found + ": one resource name is one kind of lock (a semaphore: with one"
                + " number of permits)");
        this.resource = resource;
    }

    public String resource() {
        return resource;
    }
}
