package io.redlock.internal.node;

/**
 * A node's reply to a command, with the connection that carried the command: commands on one connection reach the
 * node in the order they were queued, so a command queued later on the same connection cannot overtake this one
 * (see {@link NodeClient#sameConnection}). A queued script run or {@code SET} is its own reply ({@link ScriptCall},
 * {@link SetCall}).
 */
class NodeReply<T> extends TalliedReply<T> {

    private final BatchedConnection connection;

    NodeReply(BatchedConnection connection) {
        this.connection = connection;
    }

    BatchedConnection connection() {
        return connection;
    }
}
