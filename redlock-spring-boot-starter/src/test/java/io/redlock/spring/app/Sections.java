package io.redlock.spring.app;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Critical sections recorded by every application in this JVM: who, when (System.nanoTime), with which token. */
public final class Sections {

    /**
     * One critical section: its lease's fencing token, and the lease's validity deadline read at its end (a
     * {@link System#nanoTime} reading, as the library's default ticker).
     */
    public record Section(String app, String thread, long start, long end, long token, long validUntil) {

        /**
         * The part of the section the lease was valid for (its end is cut at the validity deadline; empty if the
         * holder was paused past it before the section started): what the lock promises no other holder overlaps.
         */
        public long validEnd() {
            return Math.max(start, Math.min(end, validUntil));
        }

        /** Whether the lease was valid for any of the section. */
        public boolean validWhileRunning() {
            return validEnd() > start;
        }
    }

    private final ConcurrentLinkedQueue<Section> all = new ConcurrentLinkedQueue<>();

    void add(Section section) {
        all.add(section);
    }

    /** Every section, in the order they started. */
    public List<Section> byStart() {
        return all.stream().sorted(Comparator.comparingLong(Section::start)).toList();
    }
}
