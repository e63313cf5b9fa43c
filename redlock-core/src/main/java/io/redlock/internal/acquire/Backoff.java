package io.redlock.internal.acquire;

import io.redlock.RetryPolicy;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * The pauses of one acquire loop between its rounds (SPEC R6), as arithmetic over an injected random source: a
 * retry delay after a lost round, cut short to the holder's remaining TTL when the nodes reported it; a short random
 * pause after a release; and after a failed attempt's clean-up (contenders collided) an exponential back-off that is
 * longer the less of the lock this client got, so the contender that nearly won goes first. Not thread-safe: the
 * {@link AcquireLoop} that owns it guards it.
 */
final class Backoff {

    /** Bounds of the random pause after a release, so woken waiters do not collide. */
    static final long MIN_WAKE_JITTER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    static final long MAX_WAKE_JITTER_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** Clean-ups in a row beyond this do not lengthen the back-off further. */
    static final int MAX_DOUBLINGS = 5;

    private final RetryPolicy retry;
    private final long wakeJitterNanos;
    private int lastGrants;
    private int cleanupsInARow;

    Backoff(RetryPolicy retry) {
        this.retry = retry;
        this.wakeJitterNanos = Math.max(MIN_WAKE_JITTER_NANOS,
                Math.min(MAX_WAKE_JITTER_NANOS, retry.minDelay().toNanos() / 20));
    }

    /**
     * After a lost round in which {@code grantsSeen} nodes granted: a delay from the retry policy, or — when the
     * nodes said a majority is free in {@code freeInNanos} ({@code -1}: unknown) — that plus a little jitter if sooner.
     */
    long afterLoss(long freeInNanos, int grantsSeen, RandomGenerator random) {
        lastGrants = grantsSeen;
        long delay = retry.nextDelayNanos(random);
        if (freeInNanos >= 0) {
            delay = Math.min(delay, freeInNanos + random.nextLong(wakeJitterNanos + 1));
        }
        return delay;
    }

    /**
     * After a holder's release ({@code cleanup} false) or a failed attempt's clean-up (true): a random pause up to
     * the jitter bound. A queued waiter does not pause after a release: the nodes hand the lock to the first waiter.
     */
    long afterRelease(boolean cleanup, boolean queued, RandomGenerator random) {
        return random.nextLong(jitterBound(cleanup, queued) + 1);
    }

    private long jitterBound(boolean cleanup, boolean queued) {
        cleanupsInARow = cleanup ? Math.min(cleanupsInARow + 1, MAX_DOUBLINGS) : 0;
        if (!cleanup && queued) {
            return 0;
        }
        long jitter = (wakeJitterNanos << cleanupsInARow) / (cleanup ? 1 + lastGrants : 1);
        return Math.min(jitter, retry.maxDelay().toNanos());
    }
}
