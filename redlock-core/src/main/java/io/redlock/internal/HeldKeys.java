package io.redlock.internal;

/**
 * The lock keys an acquisition claims and its lease then holds, as the scripts name them: those of one resource
 * ({@link Keys}: the lock with its counter and fair queue), of several taken at once ({@link KeysOfAll}: all or none,
 * one token for all, no queue), or a reader's of one resource ({@link ReaderKeys}: shared with other readers, no
 * queue), or a permit's of a semaphore ({@link PermitKeys}: one of its slots, no queue). Each gives its scripts and
 * their KEYS in the order the scripts' headers document.
 */
sealed interface HeldKeys permits Keys, KeysOfAll, SharedKeys {

    /** The lock key the fault hooks and the logs know the lock by: the first resource's. */
    String lock();

    /** The fenced acquire: {@code acquire-fenced} for one resource, {@code acquire-all} for several. */
    Script acquireScript();

    /** KEYS of the fenced acquire and of the commit. */
    String[] acquire();

    /**
     * ARGV of the fenced acquire, in its script's layout: the value, the TTL in ms, the counter's settings, whether
     * counters move at all (a lock of several resources takes them without fencing too), and the caller's place in
     * the fair queue (a lock of one resource only).
     */
    String[] acquireArgs(String value, String ttl, FenceArgs fence, boolean fencing, String waiterId, String ticket,
            String lifetime);

    /** The commit of the chosen token: {@code commit-fence} for one resource, {@code commit-all} for several. */
    Script commitScript();

    /** The value an attempt signs with, from a fresh random one: that value, except for a permit (its slot added). */
    default String value(String random) {
        return random;
    }

    /**
     * After a lost round: the keys of the next one, and whether to send it at once. The same keys after a while,
     * except for a permit, which sweeps the slots a majority has free before it waits.
     */
    default Next afterLoss(RoundResult<Long> round, int quorum) {
        return new Next(this, false);
    }

    /**
     * After a round lost in its commit because a node's counter was already at T or past it: another grant was made
     * there meanwhile. Where leases hold together under a strict commit (a permit), that grant is a permit taken beside
     * ours at the same moment, not a holder in our way: the next round goes at once, a few times. Otherwise the same
     * keys after a while, as any lost round.
     */
    default Next afterCommitClash() {
        return new Next(this, false);
    }

    /** The keys of the next round, and whether it is sent at once. */
    record Next(HeldKeys keys, boolean now) {
    }

    /**
     * Whether the commit refuses a counter already at T (fence_commit's strict): only where leases that hold together
     * must not share a token — a semaphore's permits, whose slots share one counter.
     */
    default boolean strictCommit() {
        return false;
    }

    /** The extension: {@code extend} (every lock key), or {@code extend-shared} for a reader or a permit. */
    default Script extendScript() {
        return Scripts.EXTEND;
    }

    /** KEYS of the extension. */
    String[] extend();

    /** The release: {@code release} (every lock key), or {@code release-shared} for a reader or a permit. */
    default Script releaseScript() {
        return Scripts.RELEASE;
    }

    /**
     * KEYS of the release: each lock key, then its waiter queue (a reader or a permit: the lock key, the holders, the
     * queue).
     */
    String[] release();

    /** The release channels, one per resource, in the order of {@link #release()}. */
    String[] releasedChannels();

    /** Whether the caller may queue for the lock when it waits: only for a lock of one resource. */
    boolean queues();
}
