package io.redlock.internal;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisException;
import io.redlock.NodeFailure;
import java.io.IOException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Turns what went wrong on one node into a {@link NodeFailure}: transient trouble (timeouts, refused or lost
 * connections, a node still loading) versus errors retrying will not fix (authentication, permissions, wrong type).
 */
final class Failures {

    /** Error replies that mean "not now" rather than "never". */
    private static final String[] TRANSIENT_ERROR_PREFIXES = {"LOADING", "BUSY", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN"};

    private Failures() {
    }

    static NodeFailure timeout(String node, long timeoutNanos) {
        return new NodeFailure(node, NodeFailure.Kind.TIMEOUT,
                "no reply within " + formatMillis(timeoutNanos) + " (the command may still have been applied)");
    }

    static NodeFailure of(String node, Throwable failure, Redaction redaction) {
        Throwable top = unwrap(failure);
        String reason = redaction.scrub(describe(top));
        return new NodeFailure(node, kind(top), reason);
    }

    static NodeFailure.Kind kind(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof RedisCommandExecutionException) {
                String message = String.valueOf(t.getMessage());
                for (String prefix : TRANSIENT_ERROR_PREFIXES) {
                    if (message.startsWith(prefix)) {
                        return NodeFailure.Kind.UNAVAILABLE;
                    }
                }
                return NodeFailure.Kind.ERROR;
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

    static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    static String formatMillis(long nanos) {
        long micros = nanos / 1_000;
        return micros % 1_000 == 0 ? (micros / 1_000) + " ms" : String.format("%.3f ms", micros / 1_000.0);
    }
}
