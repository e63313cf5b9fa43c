package io.redlock.internal.protocol;

import io.redlock.internal.node.Script;

/**
 * The keys a reader of one resource claims ({@code Scripts.ACQUIRE_READ}): the resource's own {@link Keys}, with
 * the readers' sorted set beside them. The lock key holds the readers' mark while read-locked, so a writer or a lock
 * of the resource waits; the counter is the resource's, shared with writers; the queue is the writers': readers
 * respect it (writer preference) but do not join it.
 */
public record ReaderKeys(Keys keys) implements SharedKeys {

    @Override
    public String holders() {
        return keys.readers();
    }

    @Override
    public Script acquireScript() {
        return Scripts.ACQUIRE_READ;
    }

    /** Lock key, counter, readers, queue, deadlines. */
    @Override
    public String[] acquire() {
        return new String[] {keys.lock(), keys.fence(), keys.readers(), keys.waiters(), keys.deadlines()};
    }
}
