package io.redlock.faults;

import io.redlock.Lease;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Holders a row schedules its fault against: the next {@code count} acquisitions of the workload's writing kind take
 * a lease of {@link #ttl} and stop inside their critical section, after their reads, until {@link #letGo()} (never
 * longer than {@link #ttl}). The row injects its fault while they are known to hold, so whether the fault falls inside
 * a hold does not depend on how fast the machine is.
 */
final class Victims {

    final Duration ttl;
    private final int count;
    private final AtomicInteger unclaimed;
    private final CountDownLatch holding;
    private final CountDownLatch letGo = new CountDownLatch(1);
    private final List<Lease> leases = new CopyOnWriteArrayList<>();

    Victims(int count, Duration ttl) {
        this.count = count;
        this.ttl = ttl;
        this.unclaimed = new AtomicInteger(count);
        this.holding = new CountDownLatch(count);
    }

    /** True if the caller's next acquisition is one of the victims' (a place was free). */
    boolean claim() {
        return unclaimed.getAndUpdate(n -> Math.max(0, n - 1)) > 0;
    }

    /** Gives back a claimed place whose acquisition did not succeed. */
    void unclaim() {
        if (letGo.getCount() > 0) {
            unclaimed.incrementAndGet();
        }
    }

    /** In a victim's critical section: counts it as holding, then waits for {@link #letGo()} (at most the TTL). */
    void hold(Lease lease) {
        leases.add(lease);
        holding.countDown();
        try {
            letGo.await(ttl.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Waits until every victim holds.
     *
     * @throws AssertionError if they did not within {@code within}
     */
    List<Lease> awaitHolding(Duration within) throws InterruptedException {
        if (!holding.await(within.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError(leases.size() + " of " + count + " victims held the lock within " + within);
        }
        return List.copyOf(leases);
    }

    /** Lets every victim go on (write, release); the places not taken yet are withdrawn. */
    void letGo() {
        unclaimed.set(0);
        letGo.countDown();
    }
}
