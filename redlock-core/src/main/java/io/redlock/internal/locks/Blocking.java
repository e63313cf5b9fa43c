package io.redlock.internal.locks;

import io.redlock.RedlockException;
import io.redlock.RedlockInterruptedException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** The blocking API waits on the asynchronous one: one code path. */
public final class Blocking {

    private Blocking() {
    }

    /**
     * Waits for {@code stage}. Failures are rethrown as they are if unchecked, else wrapped in a
     * {@link RedlockException}. On interrupt the flag is restored, the stage is cancelled (an acquisition that
     * completes later releases its lease) and {@link RedlockInterruptedException} is thrown.
     */
    public static <T> T await(CompletionStage<T> stage, String what) {
        Future<T> future = stage.toCompletableFuture();
        try {
            return future.get();
        } catch (InterruptedException e) {
            future.cancel(false);
            Thread.currentThread().interrupt();
            throw new RedlockInterruptedException("interrupted while waiting for " + what, e);
        } catch (ExecutionException e) {
            throw unwrap(e.getCause(), what);
        } catch (CancellationException e) {
            throw new RedlockException(what + " was cancelled", e);
        }
    }

    static RuntimeException unwrap(Throwable failure, String what) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new RedlockException(what + " failed: " + cause, cause);
    }
}
