package io.redlock.internal;

import java.util.concurrent.CompletableFuture;

/**
 * One script run queued for a node: the script (one of {@link Scripts#ALL}, so it can share a {@link ScriptBatch}),
 * its keys and args, the stage its integer reply completes, and whether it is paced: a delete, which may wait behind
 * the window of deletes on their way so that a burst of them cannot hold up what is queued after it
 * ({@link BatchedConnection}).
 */
record ScriptCall(Script script, String[] keys, String[] args, CompletableFuture<Long> reply, boolean paced) {

    ScriptCall {
        if (!Scripts.ALL.contains(script)) {
            throw new IllegalArgumentException(script.name() + " is not one of the batched scripts");
        }
    }
}
