package io.redlock.internal.node;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

/**
 * A node's reply (or what stands for it, such as a delete's first reply) that one listener — a {@link Round}'s tally,
 * a delete waiting for its answer — hears directly instead of through a dependent stage: no stage, no completion
 * node, no wrapper object per node and operation. The listener is told once, on the thread that completes the reply
 * (after its dependents), or at once if it is complete. Stages derived from it are plain {@link CompletableFuture}s.
 */
public class TalliedReply<T> extends CompletableFuture<T> {

    /** Hears the outcome of {@code reply}. */
    public interface Listener<T> {
        void heard(TalliedReply<? extends T> reply, T value, Throwable failure);
    }

    @SuppressWarnings("rawtypes")
    private static final AtomicReferenceFieldUpdater<TalliedReply, Listener> LISTENER =
            AtomicReferenceFieldUpdater.newUpdater(TalliedReply.class, Listener.class, "listener");
    /** Stands for "told": a listener that was told is replaced by it. */
    private static final Listener<Object> TOLD = (reply, value, failure) -> { };

    private volatile Listener<? super T> listener;

    /** Tells {@code listener} the outcome once it is known; false (and nothing is told) if it has a listener already. */
    public boolean listen(Listener<? super T> listener) {
        if (!LISTENER.compareAndSet(this, null, listener)) {
            return false;
        }
        if (isDone()) {
            T value = null;
            Throwable failure = null;
            try {
                value = join();
            } catch (CompletionException failed) {
                failure = failed.getCause() != null ? failed.getCause() : failed;
            } catch (CancellationException cancelled) {
                failure = cancelled;
            }
            tell(value, failure);
        }
        return true;
    }

    @Override
    public boolean complete(T value) {
        return toldIf(super.complete(value), value, null);
    }

    @Override
    public boolean completeExceptionally(Throwable failure) {
        return toldIf(super.completeExceptionally(failure), null, failure);
    }

    /** Tells the listener if this call completed the reply; returns {@code done}. */
    private boolean toldIf(boolean done, T value, Throwable failure) {
        if (done) {
            tell(value, failure);
        }
        return done;
    }

    @SuppressWarnings("unchecked")
    private void tell(T value, Throwable failure) {
        Listener<? super T> to = listener;
        if (to != null && to != TOLD && LISTENER.compareAndSet(this, to, TOLD)) {
            to.heard(this, value, failure);
        }
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new CompletableFuture<>();
    }
}
