package io.redlock.internal.node;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.redlock.NodeFailure;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what went wrong on one node into a {@link NodeFailure}: transient trouble (timeouts, refused or lost
 * connections, and the states a node passes through: out of memory, a replica, a failed save, loading, busy) versus
 * errors retrying will not fix (authentication, permissions, an unknown command, a failing script, wrong type).
 */
public final class Failures {

    /**
     * The error codes of states that pass: out of memory under noeviction, a replica or a demoted master, a failed
     * background save, loading, a busy script, a master down, a cluster not ready, too few replicas.
     */
    private static final Pattern STATE = Pattern.compile(
            "(OOM|READONLY|MISCONF|LOADING|BUSY|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|NOREPLICAS)\\b");
    /**
     * Where a state's code may stand: first (Redis 7, alone or in a batch), or (Redis before 7) after the script's
     * position and a '-': {@code ERR Error running script (...): @user_script:1: @user_script: 1: -OOM ...} alone,
     * {@code @user_script: 1: -OOM ...} in a batch (batch.lua passes each operation's error on unchanged).
     */
    private static final Pattern STATE_IN_SCRIPT =
            Pattern.compile("^(?:ERR .*)?@user_script: ?\\d+: -" + STATE.pattern());

    /** Starts the error reply of a script that found the resource held as another kind of lock (shared.lua). */
    static final String KIND_MISMATCH = "REDLOCKKIND ";

    private Failures() {
    }

    /** What a node said when it found the resource held as another kind of lock, if one did. */
    public static Optional<String> kindMismatch(List<NodeFailure> failures) {
        for (NodeFailure failure : failures) {
            int at = failure.reason().indexOf(KIND_MISMATCH);
            if (at >= 0) {
                return Optional.of(failure.reason().substring(at + KIND_MISMATCH.length()));
            }
        }
        return Optional.empty();
    }

    /** The state a node's error reply reports (such as {@code OOM} or {@code READONLY}), if it is one that passes. */
    static Optional<String> state(String errorReply) {
        Matcher first = STATE.matcher(errorReply);
        if (first.lookingAt()) {
            return Optional.of(first.group(1));
        }
        Matcher inScript = STATE_IN_SCRIPT.matcher(errorReply);
        return inScript.find() ? Optional.of(inScript.group(1)) : Optional.empty();
    }

    static NodeFailure timeout(String node, long timeoutNanos) {
        return new NodeFailure(node, NodeFailure.Kind.TIMEOUT,
                "no reply within " + formatMillis(timeoutNanos) + " (the command may still have been applied)");
    }

    public static NodeFailure of(String node, Throwable failure, Redaction redaction) {
        Throwable top = unwrap(failure);
        String reason = redaction.scrub(describe(top));
        return new NodeFailure(node, kind(top), reason);
    }

    public static NodeFailure.Kind kind(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof RedisCommandExecutionException) {
                return state(String.valueOf(t.getMessage())).isPresent() ? NodeFailure.Kind.UNAVAILABLE
                        : NodeFailure.Kind.ERROR;
            }
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof RedisCommandTimeoutException) {
                return NodeFailure.Kind.TIMEOUT;
            }
            if (t instanceof IOException || t instanceof RedisException || t instanceof NodeUnavailableException) {
                return NodeFailure.Kind.UNAVAILABLE;
            }
        }
        return NodeFailure.Kind.ERROR;
    }

    /** The top message plus the root cause's, on one line. */
    private static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String top = messageOf(failure);
        if (root == failure) {
            return top;
        }
        String rootMessage = messageOf(root);
        return top.contains(rootMessage) ? top : top + ": " + rootMessage;
    }

    private static String messageOf(Throwable t) {
        String message = t.getMessage();
        String text = message == null || message.isBlank() ? t.getClass().getSimpleName() : message;
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }

    public static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    public static String formatMillis(long nanos) {
        long micros = nanos / 1_000;
        return micros % 1_000 == 0 ? (micros / 1_000) + " ms" : String.format("%.3f ms", micros / 1_000.0);
    }
}
