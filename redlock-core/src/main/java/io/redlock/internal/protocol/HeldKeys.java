package io.redlock.internal.protocol;

import io.redlock.internal.node.RoundResult;
import io.redlock.internal.node.Script;
import java.util.List;

/**
 * The lock keys an acquisition claims and its lease then holds, as the scripts name them: those of one resource
 * ({@link Keys}: the lock with its counter and fair queue), of several taken at once ({@link KeysOfAll}: all or none,
 * one token for all, no queue), or a reader's of one resource ({@link ReaderKeys}: shared with other readers, no
 * queue), or a permit's of a semaphore ({@link PermitKeys}: one of its slots, no queue). Each gives its scripts,
 * their KEYS in the order the scripts' headers document, and the ARGV of those that differ by kind as the scripts'
 * requests ({@link Scripts}).
 */
public sealed interface HeldKeys permits Keys, KeysOfAll, SharedKeys {

    /** The lock key the fault hooks and the logs know the lock by: the first resource's. */
    String lock();

    /** The fenced acquire: {@code acquire-fenced} for one resource, {@code acquire-all} for several. */
    Script acquireScript();

    /** KEYS of the fenced acquire of a caller that takes no place in a queue, and of the commit. */
    String[] acquire();

    /**
     * ARGV of the fenced acquire of a caller that takes no place in a queue, from this attempt's value and TTL and the
     * settings. Here {@link Scripts.Acquire}, the request of {@code acquire-all} and {@code acquire-read} (they take
     * the counters without fencing too); a lock of one resource sends {@link Scripts.AcquireFenced} (a waiter's with
     * its place: {@link Keys#acquireArgs(String, long, ScriptSettings, String, long)}), a permit
     * {@link Scripts.AcquirePermit}.
     */
    default String[] acquireArgs(String value, long ttlMillis, ScriptSettings settings) {
        return new Scripts.Acquire(value, ttlMillis, settings.fencing(), settings.clockFloor(), settings.counterTtl())
                .argv();
    }

    /** The commit of the chosen token: {@code commit-fence} for one resource, {@code commit-all} for several. */
    Script commitScript();

    /**
     * ARGV of the commit of {@code token}: {@link Scripts.Commit} ({@code commit-fence}, {@code commit-all}); a
     * reader's or a permit's is {@link Scripts.CommitShared} ({@link SharedKeys}).
     */
    default String[] commitArgs(String value, long token, ScriptSettings settings) {
        return new Scripts.Commit(value, token, settings.clockFloor(), settings.counterTtl()).argv();
    }

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
    List<String> releasedChannels();

    /** Whether the caller may queue for the lock when it waits: only for a lock of one resource. */
    boolean queues();
}
