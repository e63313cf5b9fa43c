package io.redlock.spring;

/**
 * Which lock of its resource a {@link Locked @Locked} method holds: the exclusive lock (the default), or the read or
 * write lock of the resource's read-write lock ({@link io.redlock.RedlockReadWriteLock}: many readers at once or one
 * writer, writers first).
 */
public enum LockMode {
    /** The resource's exclusive lock ({@link io.redlock.LockTarget#of}); the only mode for several resources. */
    EXCLUSIVE,
    /**
     * The read lock ({@link io.redlock.LockTarget#read}): held together with other readers, here or in other
     * applications; waits while a writer holds the resource or waits for it.
     */
    READ,
    /**
     * The write lock ({@link io.redlock.LockTarget#write}): the resource's exclusive lock, which excludes readers;
     * meters and logs name it {@code write}.
     */
    WRITE
}
