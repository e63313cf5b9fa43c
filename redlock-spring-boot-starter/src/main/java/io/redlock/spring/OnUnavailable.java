package io.redlock.spring;

/**
 * What a {@link Locked @Locked} method with {@code onBusy = SKIP} does when the lock was not acquired because too few
 * nodes answered (down, timed out or failing): an outage, not another holder. The acquisition counts as
 * {@code result=error} in the {@code redlock.acquire} meter either way.
 */
public enum OnUnavailable {
    /** Skip the call as for a busy lock, with a WARN (at most one a minute per method) so the outage shows. */
    SKIP,
    /** Throw {@link io.redlock.LockNotAcquiredException} ({@code nodesUnavailable()} is true). */
    FAIL
}
