package io.redlock.faults;

import io.redlock.Lease;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The holds the workers are in right now (acquired, release not yet begun), each exclusive or shared, and when one
 * last entered into a conflict: an exclusive hold with company, or more shared holds at once than
 * {@code sharedAtOnce}. A fault that must break mutual exclusion is waited for that way before the holders it was
 * scheduled against go on.
 */
final class LiveHolds {

    private final Map<Lease, Boolean> shared = new ConcurrentHashMap<>();
    private final int sharedAtOnce;
    /** When a hold last entered into a conflict ({@link System#nanoTime()}); {@link Long#MIN_VALUE}: never. */
    private final AtomicLong lastConflict = new AtomicLong(Long.MIN_VALUE);

    LiveHolds(int sharedAtOnce) {
        this.sharedAtOnce = sharedAtOnce;
    }

    void entered(Lease lease, boolean isShared) {
        shared.put(lease, isShared);
        if (conflict()) {
            lastConflict.set(System.nanoTime());
        }
    }

    void left(Lease lease) {
        shared.remove(lease);
    }

    /** True if a hold entered into a conflict at {@code since} ({@link System#nanoTime()}) or later. */
    boolean conflictSince(long since) {
        long last = lastConflict.get();
        return last != Long.MIN_VALUE && last - since >= 0;
    }

    /** True if the holds in right now are more than the lock allows. */
    private boolean conflict() {
        int all = 0;
        int sharedNow = 0;
        for (boolean s : shared.values()) {
            all++;
            if (s) {
                sharedNow++;
            }
        }
        return (all > sharedNow && all >= 2) || sharedNow > sharedAtOnce;
    }

    /**
     * Waits until a hold entered into a conflict at {@code since} or later.
     *
     * @throws AssertionError if none did within {@code within}
     */
    void awaitConflict(long since, Duration within, String why) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!conflictSince(since)) {
            if (System.nanoTime() - deadline >= 0) {
                throw new AssertionError("no two holders at once within " + within + ": " + why + " (in now: "
                        + shared.size() + ")");
            }
            Thread.sleep(2);
        }
    }
}
