package io.redlock;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * What a {@code withLock} holds: one resource's lock, a lock of several resources at once, a read or write lock, or a
 * permit of a semaphore. One run-under-the-lock path ({@link Redlock#withLock(LockTarget, LockOptions, LeaseWork)},
 * its asynchronous and reactive twins) serves every kind, so the CLI and the Spring starter take any of them the same
 * way. The arguments are checked when the lock is asked for ({@link RedlockConfigException}, nothing sent).
 *
 * <pre>{@code
 * redlock.withLock(LockTarget.all(List.of("account:1", "account:2")), options, lease -> transfer());
 * redlock.withLock(LockTarget.read("catalog"), options, lease -> catalog.read());
 * redlock.withLock(LockTarget.permit("exports", 3), options, lease -> export());
 * }</pre>
 */
public final class LockTarget {

    /** The kinds of lock, each a named thing metrics and logs can tag. */
    public enum Kind {
        /** One resource's exclusive lock ({@link Redlock#lock(String)}). */
        LOCK("lock"),
        /** Several resources at once, all or none ({@link Redlock#acquireAll}). */
        SEVERAL("several"),
        /** A read lock, shared with other readers ({@link RedlockReadWriteLock#readLock()}). */
        READ("read"),
        /** A write lock: the resource's exclusive lock, as {@link RedlockReadWriteLock#writeLock()} takes it. */
        WRITE("write"),
        /** A permit of a semaphore ({@link RedlockSemaphore}). */
        PERMIT("permit");

        private final String tag;

        Kind(String tag) {
            this.tag = tag;
        }

        /** The kind's lower-case name, for meter tags and logs. */
        public String tag() {
            return tag;
        }
    }

    private final Kind kind;
    private final List<String> resources;
    private final int permits;

    private LockTarget(Kind kind, List<String> resources, int permits) {
        this.kind = kind;
        this.resources = resources;
        this.permits = permits;
    }

    /** The exclusive lock of {@code resource}. */
    public static LockTarget of(String resource) {
        return one(Kind.LOCK, resource);
    }

    /**
     * The resources' locks at once: see {@link Redlock#acquireAll}. One resource is a lock of several resources too
     * (its lease is a {@link MultiLease}'s).
     */
    public static LockTarget all(Collection<String> resources) {
        // checked when asked for, with every other lock of several resources: a null or blank one is a typed error
        return new LockTarget(Kind.SEVERAL, resources == null ? List.of()
                : Collections.unmodifiableList(new ArrayList<>(resources)), 0);
    }

    /** The read lock of {@code resource}: see {@link RedlockReadWriteLock}. */
    public static LockTarget read(String resource) {
        return one(Kind.READ, resource);
    }

    /** The write lock of {@code resource}: see {@link RedlockReadWriteLock}. */
    public static LockTarget write(String resource) {
        return one(Kind.WRITE, resource);
    }

    /**
     * A permit of {@code resource}'s semaphore of {@code permits} permits: see {@link RedlockSemaphore}. Every caller
     * of one resource must give the same number.
     */
    public static LockTarget permit(String resource, int permits) {
        return new LockTarget(Kind.PERMIT, Collections.singletonList(resource), permits); // checked when asked for
    }

    private static LockTarget one(Kind kind, String resource) {
        return new LockTarget(kind, Collections.singletonList(resource), 0); // checked when asked for
    }

    public Kind kind() {
        return kind;
    }

    /** The resources, in the order given: one, except for {@link Kind#SEVERAL}. */
    public List<String> resources() {
        return resources;
    }

    /** The first resource (null if none): the only one, except for {@link Kind#SEVERAL}. */
    public String resource() {
        return resources.isEmpty() ? null : resources.get(0);
    }

    /** The semaphore's permits for {@link Kind#PERMIT}; 0 for the other kinds. */
    public int permits() {
        return permits;
    }

    /** The name errors and logs give it: the resource, or {@code [a, b]} for several. */
    public String name() {
        return kind == Kind.SEVERAL ? resources.toString() : resource();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LockTarget that && kind == that.kind && resources.equals(that.resources)
                && permits == that.permits;
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, resources, permits);
    }

    /** {@code read catalog}, {@code several [a, b]}, {@code permit exports (3)}, … */
    @Override
    public String toString() {
        return kind.tag() + " " + name() + (kind == Kind.PERMIT ? " (" + permits + ")" : "");
    }
}
