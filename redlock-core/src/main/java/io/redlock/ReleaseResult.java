package io.redlock;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Redlock#release(String, String)} achieved: how many nodes deleted the lease's key, how many answered,
 * and which did not.
 *
 * @param released how many nodes still held the value and deleted it
 * @param answered how many nodes answered (deleted, or did not hold the value)
 * @param quorum   the majority of the configured nodes ({@link RedlockConfig#quorum()})
 * @param failures the nodes that did not answer in time or answered with an error, in node order
 */
public record ReleaseResult(int released, int answered, int quorum, List<NodeFailure> failures) {

    public ReleaseResult {
        failures = List.copyOf(Objects.requireNonNull(failures, "failures"));
    }

    /**
     * True if a majority answered: the value is no longer held on a majority, so the lock is free for others (or
     * held by someone else already). False means the lease may still hold until its TTL runs out.
     */
    public boolean confirmed() {
        return answered >= quorum;
    }
}
