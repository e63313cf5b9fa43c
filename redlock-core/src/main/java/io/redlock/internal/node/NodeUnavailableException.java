package io.redlock.internal.node;

import io.redlock.RedlockException;

/** A command was not sent because the node has no connection right now (down, or reconnecting). */
public final class NodeUnavailableException extends RedlockException {

    private static final long serialVersionUID = 1L;

    NodeUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
