package io.redlock.internal;

import io.redlock.RedlockConfig;

/**
 * The Redis names of one lock, built in this one place from its key (the key prefix and the resource): the lock
 * key itself (the only one other Redlock clients know), the fencing counter, the waiter queue, the waiters' deadlines,
 * and the pub/sub channel a release is announced on. Only the lock key is kept (a held lease keeps its Keys); the
 * others are built when a script needs them. Each script gets its keys in the order its header documents.
 */
record Keys(String lock) {

    /** Suffix of the channel a release publishes on, so waiters wake at once: {@code <key>:released}. */
    static final String RELEASED_SUFFIX = ":released";

    static Keys of(String key) {
        return new Keys(key);
    }

    String fence() {
        return lock + RedlockConfig.FENCE_SUFFIX;
    }

    String waiters() {
        return lock + RedlockConfig.WAITERS_SUFFIX;
    }

    String deadlines() {
        return waiters() + RedlockConfig.DEADLINES_SUFFIX;
    }

    String released() {
        return lock + RELEASED_SUFFIX;
    }

    /** KEYS of the fenced acquire and of the fence commit: lock, counter, queue, deadlines. */
    String[] acquire() {
        String waiters = waiters();
        return new String[] {lock, fence(), waiters, waiters + RedlockConfig.DEADLINES_SUFFIX};
    }

    /** KEYS of leaving the queue: queue, deadlines. */
    String[] queue() {
        String waiters = waiters();
        return new String[] {waiters, waiters + RedlockConfig.DEADLINES_SUFFIX};
    }

    /** KEYS of the release: lock, queue (a release publishes only while someone waits, if asked to). */
    String[] release() {
        return new String[] {lock, waiters()};
    }
}
