package io.redlock.internal.parts;

import io.redlock.RedlockClosedException;
import io.redlock.RedlockException;
import java.util.concurrent.atomic.AtomicBoolean;

/** Whether a client is closed: once closed it refuses new calls, and timed work it meets stops. Thread-safe. */
public final class Lifecycle {

    private final AtomicBoolean closed = new AtomicBoolean();

    public boolean isClosed() {
        return closed.get();
    }

    /** @throws RedlockException ({@link RedlockClosedException}) once the client is closed */
    public void ensureOpen() {
        if (closed.get()) {
            throw closedException();
        }
    }

    /** Closes; true the first time only. */
    public boolean close() {
        return closed.compareAndSet(false, true);
    }

    public static RedlockException closedException() {
        return new RedlockClosedException();
    }
}
