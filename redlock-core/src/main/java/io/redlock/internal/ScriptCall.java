package io.redlock.internal;

import java.util.concurrent.CompletableFuture;

/** One script run queued for a node: the script, its keys and args, and the stage its integer reply completes. */
record ScriptCall(Script script, String[] keys, String[] args, CompletableFuture<Long> reply) {
}
