package io.redlock.internal.release;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The deletes of one release, one per node: completes once every one of them is done with, landed or given up
 * ({@link NodeDelete}). One stage a release's pending work is tracked by, rather than one per node and their join.
 */
final class DeleteGroup extends CompletableFuture<Void> {

    private static final AtomicIntegerFieldUpdater<DeleteGroup> LEFT =
            AtomicIntegerFieldUpdater.newUpdater(DeleteGroup.class, "left");

    @SuppressWarnings("unused") // through LEFT
    private volatile int left;

    DeleteGroup(int deletes) {
        this.left = deletes;
    }

    /** One delete is done with. */
    void settledOne() {
        if (LEFT.decrementAndGet(this) == 0) {
            complete(null);
        }
    }
}
