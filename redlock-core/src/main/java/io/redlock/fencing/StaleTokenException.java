package io.redlock.fencing;

import io.redlock.RedlockException;

/**
 * The storage refused an operation because a newer lease (a larger token) has already written or read there: the
 * lease that tried it is no longer the rightful holder, whatever it believes.
 */
public class StaleTokenException extends RedlockException {

    private static final long serialVersionUID = 1L;

    private final long token;
    private final long highestToken;

    public StaleTokenException(long token, long highestToken) {
        super("stale fencing token " + token + ": the storage has already accepted token " + highestToken);
        this.token = token;
        this.highestToken = highestToken;
    }

    public long token() {
        return token;
    }

    public long highestToken() {
        return highestToken;
    }
}
