package io.redlock;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Why one node did not take part in a quorum decision.
 *
 * @param node   the node as {@code host:port} (never with credentials)
 * @param kind   what went wrong
 * @param reason a one-line description with any password removed
 */
public record NodeFailure(String node, Kind kind, String reason) {

    /** The error codes of a node that refuses the client's credentials or permissions. */
    private static final Pattern ACCESS_REFUSED = Pattern.compile("\\b(WRONGPASS|NOAUTH|NOPERM)\\b");

    /** The kinds of node failure. */
    public enum Kind {
        /** No reply within the per-node timeout; the command may still have been applied. */
        TIMEOUT,
        /** The node could not be reached or was busy loading; retrying may help. */
        UNAVAILABLE,
        /** The node answered with an error that retrying will not fix (authentication, permissions, wrong type). */
        ERROR
    }

    public NodeFailure {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(reason, "reason");
    }

    /**
     * True if the node refused the client's credentials or permissions ({@code WRONGPASS}, {@code NOAUTH},
     * {@code NOPERM}): retrying will not fix it, a configuration change will.
     */
    public boolean accessRefused() {
        return kind == Kind.ERROR && ACCESS_REFUSED.matcher(reason).find();
    }

    @Override
    public String toString() {
        return node + " " + kind + ": " + reason;
    }
}
