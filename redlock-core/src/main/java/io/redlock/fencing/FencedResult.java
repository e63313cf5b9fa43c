package io.redlock.fencing;

import io.redlock.RedlockException;

/**
 * The outcome of a fenced operation: accepted (with the value read, for reads), or rejected because the storage has
 * seen a larger token (or the same token from another lease) — then {@link #highestToken()} says which token won.
 * A rejection is never silent: {@link #orElseThrow()} turns it into a {@link StaleTokenException}. A write to an item
 * that does not exist ({@link FencedJdbc} only: a row never created, or deleted by a lease not newer than this one)
 * is not accepted either, and says so: {@link #missing()}.
 *
 * @param accepted     true if the storage applied the operation and recorded the token
 * @param value        the value read (reads), or null
 * @param token        the token the operation carried
 * @param highestToken the highest token the storage holds for the item after the operation
 */
public record FencedResult<T>(boolean accepted, T value, long token, long highestToken) {

    static <T> FencedResult<T> accepted(T value, long token) {
        return new FencedResult<>(true, value, token, token);
    }

    static <T> FencedResult<T> rejected(long token, long highestToken) {
        return new FencedResult<>(false, null, token, highestToken);
    }

    /**
     * Whether the operation was not applied because its item does not exist (never created, or deleted by a lease not
     * newer than this one) rather than because of a newer token: then {@link #highestToken()} is 0. A refusal by the
     * fence always has {@code highestToken >= token}.
     */
    public boolean missing() {
        return !accepted && highestToken < token;
    }

    /**
     * The value if accepted.
     *
     * @throws StaleTokenException if the storage refused the token
     * @throws RedlockException    if the item does not exist ({@link #missing()})
     */
    public T orElseThrow() {
        if (missing()) {
            throw new RedlockException("the item does not exist (never created, or deleted): nothing was written "
                    + "with fencing token " + token);
        }
        if (!accepted) {
            throw new StaleTokenException(token, highestToken);
        }
        return value;
    }
}
