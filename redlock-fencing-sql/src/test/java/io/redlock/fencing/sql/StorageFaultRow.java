package io.redlock.fencing.sql;

/**
 * The fault rows run with the fenced storage on PostgreSQL, each beside the Redis-storage row of docs/GUARANTEES.md
 * it repeats: what is done to whom, and what it shows.
 */
enum StorageFaultRow {

    P1("F1a", "holder paused in its critical section, between its fenced read and its write, for 2×TTL and until "
            + "another worker has held the lock and written (in-process GC pause)",
            "the paused holder's write carries a token below the one the newer holder's read recorded: PostgreSQL "
            + "refuses it (FencedJdbc's UPDATE matches no row and the result names the newer token); the plain "
            + "counter's late write erases every increment made during the pause"),
    P2("F3", "1, then 2 nodes stalled (SIGSTOP), then 3, then all resumed",
            "with 2 of 5 stalled the lock is still granted and the fenced writes go on (asserted); with 3 none is "
            + "granted (asserted), so nothing reaches the storage without a lease; tokens keep rising across it"),
    P3("F5", "kill -9 of 3 nodes, restarted empty 3 s later (longer than the TTL and than the clock floor's 2 s)",
            "the restarted nodes' fencing counters come back at the clock floor, above every token issued before: "
            + "the storage sees tokens rise across the restart and keeps every acknowledged increment (asserted)"),
    P4("F12", "a holder's link to PostgreSQL delayed 3×TTL each way (in-process TCP proxy) between its fenced read "
            + "and its write, then healed",
            "the delayed write reaches PostgreSQL after the lease ran out and a newer holder wrote: refused, as a "
            + "paused holder's; the plain counter's delayed write erases the increments made meanwhile");

    private final String beside;
    private final String fault;
    private final String shows;

    StorageFaultRow(String beside, String fault, String shows) {
        this.beside = beside;
        this.fault = fault;
        this.shows = shows;
    }

    String beside() {
        return beside;
    }

    String fault() {
        return fault;
    }

    String shows() {
        return shows;
    }
}
