package io.redlock.internal.node;

import java.util.concurrent.CompletableFuture;

/**
 * One script run queued for a node: the script (one of its {@link ScriptBatch}'s, checked by {@link NodeClient}),
 * its keys and args, the stage its integer reply completes, and whether it is paced: a delete, which may wait behind
 * the window of deletes on their way so that a burst of them cannot hold up what is queued after it
 * ({@link BatchedConnection}).
 */
record ScriptCall(Script script, String[] keys, String[] args, CompletableFuture<Long> reply, boolean paced) {
}
