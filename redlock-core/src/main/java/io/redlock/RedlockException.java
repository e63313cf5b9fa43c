package io.redlock;

/**
 * Root of every exception the library throws. Unchecked: not getting a lock is a normal result
 * ({@code Optional.empty()}), so exceptions are reserved for misuse and infrastructure failures.
 */
public class RedlockException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RedlockException(String message) {
        super(message);
    }

    public RedlockException(String message, Throwable cause) {
        super(message, cause);
    }
}
