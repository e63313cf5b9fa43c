package io.redlock.faults;

/** What a matrix row asserts about mutual exclusion without fencing. */
enum Expect {
    /** No two critical sections may overlap. */
    HOLDS,
    /** The fault must produce an overlap, and the checker must find it. */
    VIOLATED,
    /** Reported only. */
    REPORTED
}
