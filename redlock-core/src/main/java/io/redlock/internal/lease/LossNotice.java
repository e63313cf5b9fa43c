package io.redlock.internal.lease;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a loss its {@link Watchdog} declares does to the lease's holder: the worker thread it interrupts, and when every
 * listener was told, so the holder reports the loss only after them. Thread-safe.
 */
public final class LossNotice {

    private static final Logger log = LoggerFactory.getLogger(LossNotice.class);
    /** How long a holder waits for slow listeners before it reports the loss itself. */
    private static final Duration LISTENER_WAIT = Duration.ofSeconds(2);

    private final String resource;
    private Thread worker;
    private boolean interruptedWorker;
    /** Completes once every listener was told of the loss; created with the declaration. */
    private CompletableFuture<Void> told;
    private boolean declared;

    LossNotice(String resource) {
        this.resource = resource;
    }

    /** The thread to interrupt on loss. */
    public synchronized void interruptOnLoss(Thread thread) {
        worker = thread;
        interruptedWorker = false;
    }

    /** Stops interrupting the worker; true if a loss interrupted it (so the caller can clear that interrupt). */
    public synchronized boolean detachWorker() {
        worker = null;
        boolean interrupted = interruptedWorker;
        interruptedWorker = false;
        return interrupted;
    }

    /** The loss is declared: its listeners are being told. */
    synchronized void declared() {
        declared = true;
        told = new CompletableFuture<>();
    }

    /** Every listener of the declared loss was told. */
    synchronized void toldAll() {
        told.complete(null);
    }

    /** Interrupts the worker, if there is one and it is not {@code spared}; no worker is interrupted after this. */
    synchronized void interruptWorker(Thread spared) {
        if (worker != null && worker != spared) {
            worker.interrupt();
            interruptedWorker = true;
        }
        worker = null;
    }

    /** If a loss was declared, waits (bounded) until every listener was told. */
    public void awaitListenersTold() {
        try {
            listenersTold().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException cannotHappen) {
            throw new IllegalStateException(cannotHappen);
        }
    }

    /**
     * Completes once every listener was told of a declared loss: at once if none was declared, and after
     * {@link #LISTENER_WAIT} at the latest. For work that ends asynchronously, which must not block the thread that
     * ends it: that may be the one telling the listeners (a listener ending the work), or a connection's event loop.
     */
    public CompletableFuture<Void> listenersTold() {
        CompletableFuture<Void> telling;
        synchronized (this) {
            if (!declared) {
                return CompletableFuture.completedFuture(null);
            }
            telling = told;
        }
        return telling.copy().completeOnTimeout(null, LISTENER_WAIT.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((v, e) -> {
                    if (!telling.isDone()) {
                        log.debug("{}: listeners still running after {}", resource, LISTENER_WAIT);
                    }
                });
    }
}
