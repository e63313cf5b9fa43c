package io.redlock.spring.app;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Critical sections recorded by every application in this JVM: who, when (System.nanoTime), with which token. */
public final class Sections {

    /** One critical section. */
    public record Section(String app, String thread, long start, long end, long token) {
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
