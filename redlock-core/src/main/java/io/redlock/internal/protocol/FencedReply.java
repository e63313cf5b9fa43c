package io.redlock.internal.protocol;

/**
 * The reply of {@link Scripts#ACQUIRE_FENCED} (and of the plain acquire, read the same way), decoded in this one
 * place:
 * <ul>
 *   <li>a positive number: granted; it is the node's new fencing counter (the plain acquire's grant is 1);</li>
 *   <li>{@code -ms}, with {@code ms < 2^52}: refused; the holder's key expires in {@code ms} (0: none or unknown);</li>
 *   <li>{@code -(2^52 + ticket × 2^32 + ms)}: refused, and the caller, a waiter, holds place {@code ticket} in the
 *       node's queue; {@code ms} as above, below 2^32;</li>
 *   <li>{@code -(2^51 + (free + 1) × 2^32 + ms)}, from {@link Scripts#ACQUIRE_PERMIT}: the permit's slot is taken
 *       here; {@code free} is the first slot after it that is free here (-1: none); {@code ms} as above.</li>
 * </ul>
 * A {@code null} reply stands for a node that did not answer.
 */
public final class FencedReply {

    /** A refusal at or below {@code -QUEUED} also carries the caller's place in the waiter queue. */
    static final long QUEUED = 1L << 52;

    /** A refusal at or below {@code -SUGGESTS} (and above {@code -QUEUED}) also names a free slot of a semaphore. */
    static final long SUGGESTS = 1L << 51;

    private static final long MILLIS = 0xFFFF_FFFFL;

    private FencedReply() {
    }

    public static boolean isGrant(Long reply) {
        return reply != null && reply > 0;
    }

    /** A refusal that also put the caller in the node's queue. */
    public static boolean isQueued(Object reply) {
        return reply instanceof Long refusal && -refusal >= QUEUED;
    }

    /** The caller's place in the node's queue, 0 if the reply gives none. */
    public static long ticket(Long reply) {
        return isQueued(reply) ? (-reply - QUEUED) >>> 32 : 0;
    }

    /** Of a permit's refusal: the first slot after the one asked for that is free on the node; -1 if none or unsaid. */
    static int freeSlot(Long reply) {
        if (reply == null || reply > 0 || -reply < SUGGESTS || -reply >= QUEUED) {
            return -1;
        }
        return (int) ((-reply - SUGGESTS) >>> 32) - 1;
    }

    /** A commit refused because the node's counter was at T or past it (commit-fence's and commit-shared's -1). */
    public static boolean isCounterPast(Long commitReply) {
        return commitReply != null && commitReply == -1L;
    }

    /** Of a refusal: how long until the holder's key expires, in ms; 0 if unknown (or no reply). */
    public static long remainingMillis(Long reply) {
        if (reply == null || reply > 0) {
            return 0;
        }
        return -reply >= SUGGESTS ? -reply & MILLIS : -reply;
    }
}
