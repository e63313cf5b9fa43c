package io.redlock.histories;

/**
 * What the generated histories check, for docs/GUARANTEES.md (written with the fault matrix's table, so the two stay
 * one file): one line per property, from the constants the properties run with.
 */
public final class HistoriesReport {

    private HistoriesReport() {
    }

    public static String markdown() {
        return "\n## Generated histories\n\n"
                + "Beside the fixed rows above, properties in `io.redlock.histories` generate histories nobody wrote "
                + "by hand (QuickTheories draws and shrinks them) and check every call's result against a reference "
                + "model of what the call may return, on 5 real nodes behind proxies. A failure prints the smallest "
                + "failing history found and its seed: `-DQT_SEED=S` replays it, `-DQT_EXAMPLES=N` runs N histories "
                + "instead of " + Histories.DEFAULT_EXAMPLES + " per property. Faults between the calls stay on a "
                + "minority, one node each (node 0 restarted empty, node 1's clock a minute ahead, node 2 answering "
                + "30 ms late), so every claim below must hold under them.\n\n"
                + "| property | calls | faults between calls | checked at every step |\n"
                + "|---|---|---|---|\n"
                + "| `LockHistoriesIT` (up to " + LockHistoriesIT.STEPS + " steps) | a `RedlockLock` from two threads "
                + "of one client: `lock`, `lockInterruptibly`, `tryLock`, `tryLock(time)`, `lock(leaseTime)`, "
                + "`tryLock(wait, leaseTime)`, each also with the interrupt flag set; `unlock`, `currentLease`, "
                + "`isHeldByCurrentThread`, `newCondition`; fenced writes with `currentLease()`'s token; a rival "
                + "client's `tryAcquire`, writes and `release` | a kept lease's keys expire on every node; a fixed "
                + "lease runs out; the minority faults | no two leases valid at once; tokens rise with every grant; "
                + "the storage accepts exactly the writes whose token is the highest (so a lost lease's write is "
                + "refused once a newer holder wrote); after a loss every nested call of the losing thread throws "
                + "`LeaseLostException` with the lease's loss reason and `currentLease()` stays the lost lease until "
                + "the last `unlock()`, which reports the loss; an interruptible call with the flag set throws "
                + "`InterruptedException` (the loss first); `tryLock()` ignores interrupts; a free lock is granted "
                + "unless a node failed meanwhile; another thread's or client's hold is never granted over; "
                + "`currentLease()` is empty for a thread that does not hold the lock; a release leaves no key on "
                + "any node |\n"
                + "| `HoldHistoriesIT` (up to " + HoldHistoriesIT.STEPS + " steps) | three clients take holds of "
                + "every kind on one resource with `tryAcquire` (short or long TTL): a plain lease, the write and read "
                + "locks of a read-write lock, a lock of it with a second resource (`tryAcquireAll`), permits of a "
                + "semaphore of " + HoldWorld.PERMITS + "; then extend, release, `releaseAfter` (a minimum hold of "
                + "1, 100 or 300 ms), fenced writes | time passing beyond the short TTL; the minority faults | holds "
                + "that exclude each other (all but reader with reader) never valid at once, never more than "
                + HoldWorld.PERMITS + " permits; a minimum hold keeps the excluded kinds out until it has passed (no "
                + "grant returns sooner, no node that held the key drops it sooner); an attempt is granted when "
                + "nothing it excludes is held (unless a node failed meanwhile); tokens rise and the storage accepts "
                + "exactly the highest token's writes; an extension succeeds only for a valid lease and never for a "
                + "released or run-out one; a release leaves no key on any node |\n"
                + "| `WithLockHistoriesIT` (up to " + WithLockHistoriesIT.STEPS + " steps) | programs of nested "
                + "frames of blocking `withLock`, `withLockAsync` and reactive `withLock` on two resources (the "
                + "asynchronous and reactive frames' work on threads of their own), with fenced writes, a rival "
                + "client's attempts and exceptions thrown by the work | a frame's keys expire on every node (its "
                + "watchdog sees the loss); the minority faults | a blocking frame nested on the same thread in a "
                + "broken blocking frame of the same resource throws `LeaseLostException` without acquiring; one "
                + "nested in a frame that holds the resource validly waits and throws `LockNotAcquiredException`; "
                + "otherwise the lock is granted with a rising token; a frame whose lease was lost ends with "
                + "`LeaseLostException` whatever its work did, and a blocking frame's thread is interrupted by the "
                + "loss; else the work's exception or value; the rival never gets a resource a frame holds validly; "
                + "the storage accepts exactly the highest token's writes; a frame's keys are gone when it ends |\n";
    }
}
