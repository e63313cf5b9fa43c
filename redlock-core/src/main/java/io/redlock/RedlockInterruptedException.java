package io.redlock;

/**
 * A blocking call was interrupted while waiting. The thread's interrupt flag is set again before this is thrown,
 * and a lease obtained after the interrupt is released, never leaked.
 */
public class RedlockInterruptedException extends RedlockException {

    private static final long serialVersionUID = 1L;

    public RedlockInterruptedException(String message, InterruptedException cause) {
        super(message, cause);
    }
}
