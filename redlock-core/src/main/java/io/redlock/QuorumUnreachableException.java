package io.redlock;

import java.util.List;

/**
 * A majority of nodes could not be used because of errors that retrying will not fix, such as a wrong password or
 * missing permissions. Lists every failing node and why, without credentials.
 *
 * <p>Transient trouble (nodes down, timeouts) is not reported this way: the lock is simply not acquired
 * ({@code Optional.empty()}) and a warning is logged, because such a round is indistinguishable from contention and
 * the nodes may come back.
 */
public class QuorumUnreachableException extends RedlockException {

    private static final long serialVersionUID = 1L;

    private final transient List<NodeFailure> failures;

    public QuorumUnreachableException(String message, List<NodeFailure> failures) {
        super(message);
        this.failures = List.copyOf(failures);
    }

    /** The nodes that failed, in node order. */
    public List<NodeFailure> failures() {
        return failures;
    }
}
