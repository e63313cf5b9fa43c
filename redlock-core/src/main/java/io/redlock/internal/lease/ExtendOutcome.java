package io.redlock.internal.lease;

/** What an extension achieved. */
enum ExtendOutcome {
    /** A majority confirmed inside the new validity; the lease was renewed. */
    EXTENDED,
    /** A majority answered that it does not hold the lease's value: the lock is gone. */
    REFUSED,
    /** No majority this time (nodes down or slow, or no validity left); the lease may still hold. */
    FAILED
}
