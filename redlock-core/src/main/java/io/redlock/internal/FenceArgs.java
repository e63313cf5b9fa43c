package io.redlock.internal;

import io.redlock.RedlockConfig;

/**
 * The fencing counter's settings as the arguments of the scripts that write it ({@code lua/fence-counter.lua}):
 * whether the clock floor applies, and how long the counter lives after a grant or commit, in ms ("0": forever).
 */
record FenceArgs(String clockFloor, String counterTtl) {

    static FenceArgs of(RedlockConfig config) {
        return new FenceArgs(config.fencingClockFloor() ? "1" : "0", Long.toString(config.fenceCounterTtl().toMillis()));
    }
}
