package io.redlock.internal;

import io.redlock.RedlockConfig;

/**
 * The Redis names of one lock, built in this one place from its key (the key prefix and the resource): the lock
 * key itself (the only one other Redlock clients know), the fencing counter, the waiter queue, the waiters' deadlines,
 * and the pub/sub channel a release is announced on. Each script gets its keys in the order its header documents.
 */
record Keys(String lock, String fence, String waiters, String deadlines, String released) {

    /** Suffix of the channel a release publishes on, so waiters wake at once: {@code <key>:released}. */
    static final String RELEASED_SUFFIX = ":released";

    static Keys of(String key) {
        String waiters = key + RedlockConfig.WAITERS_SUFFIX;
        return new Keys(key, key + RedlockConfig.FENCE_SUFFIX, waiters, waiters + RedlockConfig.DEADLINES_SUFFIX,
                key + RELEASED_SUFFIX);
    }

    /** KEYS of the fenced acquire and of the fence commit: lock, counter, queue, deadlines. */
    String[] acquire() {
        return new String[] {lock, fence, waiters, deadlines};
    }

    /** KEYS of leaving the queue: queue, deadlines. */
    String[] queue() {
        return new String[] {waiters, deadlines};
    }

    /** KEYS of the release: lock, queue (a release publishes only while someone waits, if asked to). */
    String[] release() {
        return new String[] {lock, waiters};
    }
}
