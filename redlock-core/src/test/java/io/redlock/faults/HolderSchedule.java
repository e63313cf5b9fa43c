package io.redlock.faults;

import io.redlock.Lease;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * What a row tells the next holders of a {@link Workload} to do in their critical sections: how long they work,
 * whether they extend their lease first, a callback, a pause for the next writer ({@link #pauseNextHolder}), holders a
 * fault is scheduled against ({@link #holdNext}); and the holds in right now ({@link LiveHolds}), where a conflict
 * the fault must cause is awaited.
 */
final class HolderSchedule {

    /** The longest a worker's pause ({@link #pauseNextHolder}) waits for another worker to hold beside it. */
    static final Duration PATIENCE = RowBench.PATIENCE;

    private volatile Duration work;
    private volatile boolean extendEachHold;
    private volatile Consumer<Lease> onHolding = lease -> { };
    private volatile Duration pauseNextHolder;
    private volatile Victims victims;
    private volatile LiveHolds live = new LiveHolds(Integer.MAX_VALUE);

    /** Every holder works {@code work} in its critical section, until {@link #workFor} says otherwise. */
    HolderSchedule(Duration work) {
        this.work = work;
    }

    /** From now on every holder works {@code work} (default TTL/3) in its critical section, between reads and writes. */
    void workFor(Duration work) {
        this.work = work;
    }

    /** From now on every holder extends its lease by the TTL after the work, and writes only if that succeeded. */
    void extendEachHold() {
        extendEachHold = true;
    }

    /** Called in each critical section, after the reads. */
    void onHolding(Consumer<Lease> callback) {
        this.onHolding = callback;
    }

    /**
     * The next worker to hold the lock (a writer, or permit holder) stops between its reads and its writes (a GC
     * pause) for {@code pause}, and on until another worker holds beside it (at most {@link #PATIENCE}): its lease runs
     * out meanwhile, and the overlap of critical sections that follows does not depend on how fast the others are.
     */
    void pauseNextHolder(Duration pause) {
        pauseNextHolder = pause;
    }

    /**
     * The next {@code count} acquisitions by a writer (or permit holder) take a lease of {@code ttl} and stop in their
     * critical section, after their reads, until the returned {@link Victims} lets them go.
     */
    Victims holdNext(int count, Duration ttl) {
        Victims next = new Victims(count, ttl);
        victims = next;
        return next;
    }

    /**
     * Waits until more workers held at once than the lock allows (see {@link LiveHolds}), at {@code since}
     * ({@link System#nanoTime()}) or later.
     *
     * @throws AssertionError if they did not within {@code within}
     */
    void awaitConflict(long since, Duration within, String why) throws InterruptedException {
        live.awaitConflict(since, within, why);
    }

    /** When the workers start: the holds in are counted afresh, a conflict past {@code sharedAtOnce} shared holds. */
    void start(int sharedAtOnce) {
        live = new LiveHolds(sharedAtOnce);
    }

    /** The holds in right now. */
    LiveHolds live() {
        return live;
    }

    /** How long a holder works in its critical section. */
    Duration work() {
        return work;
    }

    /** Whether a holder extends its lease after the work. */
    boolean extendsEachHold() {
        return extendEachHold;
    }

    /** In a critical section, after the reads: the callback of {@link #onHolding}. */
    void holding(Lease lease) {
        onHolding.accept(lease);
    }

    /** The victims scheduled last ({@link #holdNext}), or null. */
    Victims victims() {
        return victims;
    }

    /** The pause of {@link #pauseNextHolder} for the caller, which is the next holder to pause; null if none is due. */
    Duration takePause() {
        Duration pause = pauseNextHolder;
        if (pause != null) {
            pauseNextHolder = null;
        }
        return pause;
    }
}
