package io.redlock.bench;

import java.time.Duration;

/** One library's lock of one kind in one window ({@link KindWindow}): what a caller thread takes and gives back. */
@FunctionalInterface
interface KindLock {

    /** What a thread holds until it calls {@link #release()}. */
    @FunctionalInterface
    interface Held {
        void release() throws Exception;
    }

    /**
     * Waits up to {@code maxWait} for what thread {@code slot} holds, taken for {@code ttl} (no watchdog); null if the
     * wait ran out.
     */
    Held acquire(int slot, Duration ttl, Duration maxWait) throws Exception;
}
