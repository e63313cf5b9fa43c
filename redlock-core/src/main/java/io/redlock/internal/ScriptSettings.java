package io.redlock.internal;

import io.redlock.RedlockConfig;

/**
 * The configuration as the lock scripts take it, written out once per engine: whether the counters move (fencing),
 * whether the clock floor applies, how long a counter lives after a grant or commit in ms ("0": forever; both in
 * {@code lua/fence-counter.lua}), and how long a waiter's place lasts without a new attempt in ms
 * ({@link QueueUpkeep#placeLifetimeMillis}). The requests of {@link Scripts} take what their script needs of it.
 */
record ScriptSettings(boolean fencing, boolean clockFloor, String counterTtl, String placeLifetime) {

    static ScriptSettings of(RedlockConfig config) {
        return new ScriptSettings(config.fencing(), config.fencingClockFloor(),
                Long.toString(config.fenceCounterTtl().toMillis()),
                Long.toString(QueueUpkeep.placeLifetimeMillis(config)));
    }
}
