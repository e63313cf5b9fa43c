package io.redlock.bench;

import java.time.Duration;

/** One of the clients of the contended scenario: waits for the lock, holds it, gives it back. Used by one thread. */
interface LockClient extends AutoCloseable {

    /** Waits up to {@code maxWait} for the lock, taken for {@code ttl}; true if acquired. */
    boolean acquire(String resource, Duration ttl, Duration maxWait);

    /** Releases what the last successful {@link #acquire} took. */
    void release();

    @Override
    void close();
}
