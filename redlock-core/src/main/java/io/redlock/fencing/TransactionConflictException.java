package io.redlock.fencing;

import io.redlock.RedlockException;

/**
 * The database rolled back a fenced operation's transaction because it conflicted with another one: a serialization
 * failure (SQLState {@code 40001}, e.g. PostgreSQL at REPEATABLE READ or SERIALIZABLE, or a MariaDB deadlock) or a
 * deadlock (PostgreSQL's {@code 40P01}). Nothing of the transaction is applied, and the fence decided nothing: the
 * operation is <b>retryable</b>. Roll the connection back and run the whole transaction again, reads included, with
 * the same fence; the retry is then accepted or refused by the fence as usual. Not retried by the library: only the
 * caller knows where its transaction began.
 */
public class TransactionConflictException extends RedlockException {

    private static final long serialVersionUID = 1L;

    private final String sqlState;

    public TransactionConflictException(String message, String sqlState, Throwable cause) {
        super(message, cause);
        this.sqlState = sqlState;
    }

    /** The SQLState the database reported: {@code 40001} or {@code 40P01}. */
    public String sqlState() {
        return sqlState;
    }
}
