package io.redlock.bench;

/**
 * The kinds of lock the kinds section measures (issue #20), each with the shape of its window: {@code threads}
 * blocking callers, slot {@code s} a thread, and what each thread holds. The plain lock is the baseline.
 */
enum Kind {

    /** Each thread its own resource: no contention, the cost of a lock and nothing else (the baseline). */
    LOCK("plain lock"),

    /**
     * Several resources at once, in a ring: thread {@code s} holds the resources of slots {@code s}, {@code s + 1},
     * ... ({@code several} of them, modulo the thread count), so neighbours exclude each other.
     */
    SEVERAL("several resources"),

    /** One resource: thread 0 writes, the others read. */
    READ_WRITE("read-write"),

    /** One semaphore of {@code permits} permits, every thread taking one. */
    PERMITS("semaphore");

    private final String label;

    Kind(String label) {
        this.label = label;
    }

    /** How the table names the kind. */
    String label() {
        return label;
    }
}
