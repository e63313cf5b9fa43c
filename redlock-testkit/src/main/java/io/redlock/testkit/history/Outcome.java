package io.redlock.testkit.history;

/** How an operation recorded in a {@link History} ended. */
public enum Outcome {
    /** Completed and definitely applied. */
    OK,
    /** Completed and definitely not applied. */
    FAIL,
    /** Timed out or never completed: it may or may not have been applied, at any time after its invocation. */
    UNKNOWN
}
