package io.redlock.internal;

import java.util.concurrent.CompletableFuture;

/**
 * One script run queued for a node: the script (one of {@link Scripts#ALL}, so it can share a {@link ScriptBatch}),
 * its keys and args, and the stage its integer reply completes.
 */
record ScriptCall(Script script, String[] keys, String[] args, CompletableFuture<Long> reply) {

    ScriptCall {
        if (!Scripts.ALL.contains(script)) {
            throw new IllegalArgumentException(script.name() + " is not one of the batched scripts");
        }
    }
}
