package io.redlock.cli;

/** The command's exit codes, from sysexits(3) where one fits. */
final class ExitCodes {

    static final int OK = 0;
    /** Doctor found a FAIL. */
    static final int CHECK_FAILED = 1;
    /** EX_USAGE: bad arguments or configuration. */
    static final int USAGE = 64;
    /** EX_UNAVAILABLE: not enough nodes answer for a quorum. */
    static final int UNAVAILABLE = 69;
    /** EX_SOFTWARE: an unexpected error. */
    static final int SOFTWARE = 70;
    /** Not acquired: another client holds the lock (or, for extend/release, the lease is no longer held). */
    static final int NOT_ACQUIRED = 73;
    /** EX_TEMPFAIL: the lease was lost while the command ran. */
    static final int LEASE_LOST = 75;

    private ExitCodes() {
    }
}
