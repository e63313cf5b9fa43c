package io.redlock.histories;

import io.redlock.Lease;
import io.redlock.MultiLease;
import java.time.Duration;

/**
 * One hold a {@link HoldWorld} tracks: which client took it, of which kind, the lease underneath (or leases of
 * several resources), and whether it was released, at once or after a minimum hold.
 */
final class Hold {

    /** The kinds of hold on the world's resource, and which exclude which. */
    enum Kind {
        /** {@code Redlock.tryAcquire} of the resource. */
        PLAIN,
        /** The write lock of {@code readWriteLock(resource)}. */
        WRITE,
        /** The read lock of {@code readWriteLock(resource)}: shared with other readers. */
        READ,
        /** {@code tryAcquireAll} of the resource and a second one. */
        SEVERAL,
        /** A permit of {@code semaphore(permitsResource, PERMITS)}, a resource of its own. */
        PERMIT;

        /** Whether holds of these two kinds may not be valid at the same time. */
        boolean excludes(Kind other) {
            if (this == PERMIT || other == PERMIT) {
                return false; // counted instead: at most PERMITS at once
            }
            return this != READ || other != READ;
        }

        /** Whether the hold carries a token of the world's resource that a fenced write may use. */
        boolean writes() {
            return this == PLAIN || this == WRITE || this == SEVERAL;
        }
    }

    final int client;
    final Kind kind;
    final Lease lease;
    final MultiLease several;
    final String resource;
    boolean released;
    /**
     * The earliest a minimum hold may end ({@code System.nanoTime()}), or null: released at once, still held, or its
     * lease had too little validity left to be kept.
     */
    Long keptUntil;
    /** The latest a minimum hold's keys may stay on the nodes, or null. */
    Long mayKeepUntil;

    Hold(int client, Kind kind, Lease lease, MultiLease several, String resource) {
        this.client = client;
        this.kind = kind;
        this.lease = lease;
        this.several = several;
        this.resource = resource;
    }

    boolean isValid() {
        return lease != null ? lease.isValid() : several.isValid();
    }

    String value() {
        return lease != null ? lease.value() : several.value();
    }

    long token() {
        return lease != null ? lease.fencingToken() : several.fencingToken(resource);
    }

    boolean extend(Duration ttl) {
        return lease != null ? lease.extend(ttl) : several.extend(ttl);
    }

    void release() {
        if (lease != null) {
            lease.release();
        } else {
            several.release();
        }
        released = true;
    }

    /** Whether the hold may still keep others out at {@code nanos}: not released, or within its minimum hold. */
    boolean mayHoldAt(long nanos) {
        return !released || mayKeepUntil != null && nanos - mayKeepUntil < 0;
    }

    @Override
    public String toString() {
        return "C" + client + " " + kind + (released ? mayKeepUntil != null ? " (kept)" : " (released)" : "");
    }
}
