package io.redlock.bench;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A contestant whose every pair takes a resource nobody locked before ({@code <slot's resource>:<n>}), where the
 * others reuse their slot's resource pair after pair, as a job or a request handler taking its lock does. A fenced
 * lock's first grant on a resource creates its fencing counters; a reused one finds them.
 */
final class FreshResources implements Contestant {

    /** The suffix of the id of a contestant that takes a new resource for each pair. */
    static final String SUFFIX = "-fresh";

    private final Contestant reusing;
    private final AtomicLong pairs = new AtomicLong();

    FreshResources(Contestant reusing) {
        this.reusing = reusing;
    }

    @Override
    public String name() {
        return reusing.name() + ", new resource each pair";
    }

    @Override
    public String id() {
        return reusing.id() + SUFFIX;
    }

    @Override
    public int nodes() {
        return reusing.nodes();
    }

    @Override
    public CompletionStage<Void> pair(String resource, int slot) {
        return reusing.pair(resource + ":" + pairs.incrementAndGet(), slot);
    }

    @Override
    public void startWindow(String keyPrefix, int inFlight) {
        reusing.startWindow(keyPrefix, inFlight);
    }

    @Override
    public void close() {
        reusing.close();
    }
}
