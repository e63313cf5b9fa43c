package io.redlock.internal.node;

import java.util.concurrent.CompletableFuture;

/**
 * A node's reply to a command, with the connection that carried the command: commands on one connection reach the
 * node in the order they were queued, so a command queued later on the same connection cannot overtake this one
 * (see {@link NodeClient#sameConnection}). Stages derived from it are plain {@link CompletableFuture}s.
 */
final class NodeReply<T> extends CompletableFuture<T> {

    private final BatchedConnection connection;

    NodeReply(BatchedConnection connection) {
        this.connection = connection;
    }

    BatchedConnection connection() {
        return connection;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
