package io.redlock.fencing;

/**
 * The outcome of a fenced operation: accepted (with the value read, for reads), or rejected because the storage has
 * seen a larger token (or the same token from another lease) — then {@link #highestToken()} says which token won.
 * A rejection is never silent: {@link #orElseThrow()} turns it into a {@link StaleTokenException}.
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

    /** The value if accepted. @throws StaleTokenException if the storage refused the token */
    public T orElseThrow() {
        if (!accepted) {
            throw new StaleTokenException(token, highestToken);
        }
        return value;
    }
}
