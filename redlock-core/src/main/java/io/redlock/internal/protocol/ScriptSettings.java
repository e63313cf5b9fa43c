package io.redlock.internal.protocol;

import io.redlock.RedlockConfig;

/**
 * The configuration as the lock scripts take it, written out once per engine: whether the counters move (fencing),
 * whether the clock floor applies, how long a counter lives after a grant or commit in ms ("0": forever; both in
 * {@code lua/fence-counter.lua}), and how long a waiter's place lasts without a new attempt in ms
 * ({@link #placeLifetimeMillis}). The requests of {@link Scripts} take what their script needs of it.
 */
public record ScriptSettings(boolean fencing, boolean clockFloor, String counterTtl, String placeLifetime) {

    public static ScriptSettings of(RedlockConfig config) {
        return new ScriptSettings(config.fencing(), config.fencingClockFloor(),
                Long.toString(config.fenceCounterTtl().toMillis()),
                Long.toString(placeLifetimeMillis(config)));
    }

    /** How long a waiter's place lasts without a new attempt: two of its longest pauses between rounds, plus 1 ms. */
    static long placeLifetimeMillis(RedlockConfig config) {
        return 2 * (config.retry().maxDelay().toMillis() + config.nodeTimeout().toMillis()) + 1;
    }
}
