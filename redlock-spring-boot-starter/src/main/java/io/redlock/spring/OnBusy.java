package io.redlock.spring;

/** What a {@link Locked @Locked} method does when the lock is held elsewhere for longer than its wait. */
public enum OnBusy {
    /** Throw {@link io.redlock.LockNotAcquiredException}. */
    FAIL,
    /**
     * Do not run the method; return {@code null} (or nothing, for {@code void}), {@code Optional.empty()}, an empty
     * {@code OptionalInt/Long/Double}, or an empty {@code List}, {@code Set}, {@code Map}, {@code Collection},
     * {@code Iterable} or {@code Stream}, depending on the declared return type. Not allowed on methods returning a
     * primitive other than {@code void}.
     */
    SKIP
}
