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

    /**
     * Whether this contestant is measured with callers that block: a thread of its own per in-flight slot calls
     * {@link #pairBlocking} in a loop, as {@code withLock} or a {@code Lock} is called by most Java code. Then
     * {@link #pair} is not used.
     */
    default boolean blocking() {
        return false;
    }

    /**
     * One pair on the calling thread, the caller of slot {@code slot}, which waits for the acquisition and the
     * release; throws if not acquired.
     */
    default void pairBlocking(String resource, int slot) throws Exception {
        throw new UnsupportedOperationException(name() + " has no blocking mode");
    }

    /**
     * A window (or the JIT warm-up) is about to start {@code inFlight} slots on the resources {@code keyPrefix +
     * slot}, fresh ones: a contestant whose pairs share resources between slots (the kinds of lock, {@link
     * KindContestant}) names them after {@code keyPrefix}. Called before any slot starts, on the harness's thread.
     */
    default void startWindow(String keyPrefix, int inFlight) {
    }

    /**
     * Called on a blocking slot's thread before each pair, outside its timing: a caller's time between pairs (think
     * time). None by default.
     */
    default void beforePair(int slot) throws InterruptedException {
    }

    @Override
    void close();

    /** The stage of a pair that did not get its lock: with distinct resources per slot this is an error. */
    static CompletableFuture<Void> notAcquired(String resource) {
        return CompletableFuture.failedFuture(new IllegalStateException("not acquired: " + resource));
    }
}
