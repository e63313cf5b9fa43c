package io.redlock;

/** Why a lease was lost before it was released. */
public enum LossReason {
    /** A majority of nodes no longer holds the lease's value (it expired or was deleted there), so it cannot be extended. */
    EXTENSION_REFUSED("a majority of nodes no longer holds the lock"),
    /** The validity ran out before an extension reached a majority (nodes down, stalled or unreachable). */
    EXPIRED("the validity ran out before an extension reached a majority"),
    /** The lease was held for its maximum hold time; it was not extended any more (SPEC R8). */
    MAX_HOLD("the maximum hold time was reached"),
    /** The {@link Redlock} was closed while the lease was held: it released the lease on every node. */
    CLOSED("the Redlock was closed, which released the lock");

    private final String description;

    LossReason(String description) {
        this.description = description;
    }

    /** One sentence, for messages. */
    public String description() {
        return description;
    }
}
