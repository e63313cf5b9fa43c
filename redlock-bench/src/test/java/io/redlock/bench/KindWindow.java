package io.redlock.bench;

import java.util.List;
import java.util.stream.IntStream;

/**
 * One window of a kind of lock: its fresh resources ({@code keyPrefix} and the slot, as every window of the harness),
 * the thread count, and what each thread holds. Names only; the libraries make their locks of them.
 */
record KindWindow(Kind kind, String keyPrefix, int threads, int several, int permits) {

    /** The resource of slot {@code slot}: a plain lock's own, a ring member of several resources. */
    String own(int slot) {
        return keyPrefix + slot;
    }

    /** The resource every thread of a read-write lock or a semaphore shares. */
    String shared() {
        return keyPrefix + (kind == Kind.PERMITS ? "semaphore" : "rw");
    }

    /** The slots whose resources thread {@code slot} holds at once: its own and the next ones of the ring. */
    int[] ring(int slot) {
        return IntStream.range(0, several).map(i -> (slot + i) % threads).sorted().toArray();
    }

    /**
     * The resources thread {@code slot} holds at once, in one order for every thread (by slot), so that a library
     * taking them one by one does not deadlock.
     */
    List<String> severalResources(int slot) {
        return IntStream.of(ring(slot)).mapToObj(this::own).toList();
    }

    /** Whether thread {@code slot} writes (of a read-write lock: thread 0); the others read. */
    boolean writer(int slot) {
        return kind == Kind.READ_WRITE && slot == 0;
    }
}
