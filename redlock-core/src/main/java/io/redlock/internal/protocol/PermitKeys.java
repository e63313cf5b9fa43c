package io.redlock.internal.protocol;

import io.redlock.internal.node.RoundResult;
import io.redlock.internal.node.Script;

/**
 * The keys a permit of a semaphore claims ({@link Scripts#ACQUIRE_PERMIT}): the resource's own {@link Keys}, with the
 * holders' sorted set beside them, and the slot this attempt asks for. A semaphore of {@code permits} permits is that
 * many slots, each a mutex over the quorum; the slot rides in the value ({@code <random>.<slot>}), so extension,
 * commit and release are a reader's ({@link SharedKeys}). The counter is the resource's; permits do not queue.
 *
 * <p>Between rounds the slot moves: after a refusal, to the slot the most nodes name as free, at once while one not
 * yet asked for in this sweep may be free on a majority — named free by enough nodes, counting those whose reply was
 * not in when the round was decided ({@link #afterLoss}); so one try sweeps the slots a majority has free, at most
 * {@code permits} rounds, before it waits.
 *
 * <p>Two permits granted at the same moment can draw the same token T (each node's counter moved twice, in different
 * orders); the strict commit refuses both, and both release. Such a round is sent again at once, up to
 * {@link #COMMIT_CLASHES} times per sweep ({@link #afterCommitClash}), so that callers no more numerous than the
 * permits all get one.
 *
 * @param tried   the slots asked for in this sweep, one bit each
 * @param clashes the rounds of this sweep lost to a commit clash
 */
public record PermitKeys(Keys keys, int permits, int slot, long tried, int clashes) implements SharedKeys {

    /** How many rounds lost to a commit clash one sweep sends again at once. */
    static final int COMMIT_CLASHES = 3;

    /** Separates a permit holder's random value from its slot (never in a base64url value). */
    static final char SLOT_SEPARATOR = '.';

    /** The first try of a permit: a random slot, so callers spread over the free ones. */
    public static PermitKeys first(Keys keys, int permits, int slot) {
        return new PermitKeys(keys, permits, slot, 1L << slot, 0);
    }

    /** The slot of a permit holder's value; -1 if it has none. */
    public static int slotOf(String value) {
        int dot = value.lastIndexOf(SLOT_SEPARATOR);
        if (dot < 0) {
            return -1;
        }
        try {
            return Integer.parseInt(value.substring(dot + 1));
        } catch (NumberFormatException notASlot) {
            return -1;
        }
    }

    @Override
    public String value(String random) {
        return random + SLOT_SEPARATOR + slot;
    }

    @Override
    public Next afterLoss(RoundResult<Long> round, int quorum) {
        int[] votes = new int[permits];
        int unheard = 0; // a round is decided lost once a majority is out of reach: some replies are not in yet
        for (int i = 0; i < round.answered().length; i++) {
            if (!round.answered(i)) {
                unheard++;
                continue;
            }
            Long reply = round.reply(i);
            int free = FencedReply.isGrant(reply) ? slot : FencedReply.freeSlot(reply);
            if (free >= 0 && free < permits) {
                votes[free]++;
            }
        }
        int best = -1;
        for (int s = 0; s < permits; s++) {
            boolean untried = (tried & (1L << s)) == 0;
            if (untried && votes[s] + unheard >= quorum && (best < 0 || votes[s] > votes[best])) {
                best = s;
            }
        }
        if (best >= 0) {
            return new Next(new PermitKeys(keys, permits, best, tried | (1L << best), clashes), true);
        }
        return new Next(first(keys, permits, slot), false); // swept: wait, then start again where we were
    }

    @Override
    public Next afterCommitClash() {
        if (clashes < COMMIT_CLASHES) {
            return new Next(new PermitKeys(keys, permits, slot, tried, clashes + 1), true);
        }
        return new Next(first(keys, permits, slot), false);
    }

    @Override
    public String holders() {
        return keys.permits();
    }

    /** Permits hold together on one counter: a counter already at T was raised there by another permit's grant. */
    @Override
    public boolean strictCommit() {
        return true;
    }

    @Override
    public Script acquireScript() {
        return Scripts.ACQUIRE_PERMIT;
    }

    /** Lock key, counter, holders. */
    @Override
    public String[] acquire() {
        return new String[] {keys.lock(), keys.fence(), keys.permits()};
    }

    @Override
    public String[] acquireArgs(String value, long ttlMillis, ScriptSettings settings) {
        return new Scripts.AcquirePermit(value, ttlMillis, settings.fencing(), settings.clockFloor(),
                settings.counterTtl(), permits).argv();
    }
}
