package io.redlock;

/**
 * The lease protecting a piece of work was lost while the work ran: the work was not protected from the moment of
 * the loss on. Thrown by {@code withLock} after the work returned (even if the work swallowed the interrupt) and by
 * {@code RedlockLock.unlock()}.
 */
public class LeaseLostException extends RedlockException {

    private static final long serialVersionUID = 1L;

    private final String resource;
    private final LossReason reason;

    public LeaseLostException(String resource, LossReason reason, Throwable cause) {
        super("lost the lock on '" + resource + "': " + reason.description(), cause);
        this.resource = resource;
        this.reason = reason;
    }

    public String resource() {
        return resource;
    }

    public LossReason reason() {
        return reason;
    }
}
