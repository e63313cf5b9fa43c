package io.redlock.internal;

import io.redlock.RedlockClosedException;
import io.redlock.RedlockException;
import java.util.concurrent.atomic.AtomicBoolean;

/** Whether a client is closed: once closed it refuses new calls, and timed work it meets stops. Thread-safe. */
final class Lifecycle {

    private final AtomicBoolean closed = new AtomicBoolean();

    boolean isClosed() {
        return closed.get();
    }

    /** @throws RedlockException ({@link RedlockClosedException}) once the client is closed */
    void ensureOpen() {
        if (closed.get()) {
            throw closedException();
        }
    }

    /** Closes; true the first time only. */
    boolean close() {
        return closed.compareAndSet(false, true);
    }

    static RedlockException closedException() {
        return new RedlockClosedException();
    }
}
