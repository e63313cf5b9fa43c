package io.redlock.internal.node;

/**
 * One script run queued for a node, and its integer reply: the script (one of its {@link ScriptBatch}'s, checked by
 * {@link NodeClient}), its keys and args, and whether it is paced: a delete, which may wait behind the window of
 * deletes on their way so that a burst of them cannot hold up what is queued after it ({@link BatchedConnection}).
 * The run is its own reply, so a node's part of a lock operation is one object.
 */
final class ScriptCall extends NodeReply<Long> {

    private final Script script;
    private final String[] keys;
    private final String[] args;
    private final boolean paced;

    ScriptCall(BatchedConnection connection, Script script, String[] keys, String[] args, boolean paced) {
        super(connection);
        this.script = script;
        this.keys = keys;
        this.args = args;
        this.paced = paced;
    }

    Script script() {
        return script;
    }

    String[] keys() {
        return keys;
    }

    String[] args() {
        return args;
    }

    boolean paced() {
        return paced;
    }
}
