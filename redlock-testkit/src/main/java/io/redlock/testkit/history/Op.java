package io.redlock.testkit.history;

/** The kind of an operation recorded in a {@link History}. */
public enum Op {
    /** Acquire a lock lease. */
    ACQUIRE,
    /** Extend a held lease's validity. */
    EXTEND,
    /** Release a lease. */
    RELEASE,
    /** Read the protected storage. */
    READ,
    /** Write the protected storage (a fenced increment of a counter). */
    WRITE
}
