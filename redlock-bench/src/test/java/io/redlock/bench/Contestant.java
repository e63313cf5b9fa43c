package io.redlock.bench;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One lock implementation in the side-by-side run. A pair is one acquisition of {@code resource} followed by its
 * release; the returned stage completes when the release is done, exceptionally if the lock was not acquired or not
 * released. Each in-flight slot {@code slot} (0, 1, ...) has its own resource and at most one pair in flight; pairs of
 * different slots run concurrently, so {@link #pair} must not block.
 */
interface Contestant extends AutoCloseable {

    /** The name in the table, e.g. {@code redlock-java (fenced)}. */
    String name();

    /** A short name safe in Redis keys and file names, e.g. {@code fenced}. */
    String id();

    /** How many Redis nodes one pair talks to. */
    int nodes();

    CompletionStage<Void> pair(String resource, int slot);

    @Override
    void close();

    /** The stage of a pair that did not get its lock: with distinct resources per slot this is an error. */
    static CompletableFuture<Void> notAcquired(String resource) {
        return CompletableFuture.failedFuture(new IllegalStateException("not acquired: " + resource));
    }
}
