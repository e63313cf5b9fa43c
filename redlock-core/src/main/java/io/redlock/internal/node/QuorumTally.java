package io.redlock.internal.node;

import io.redlock.RedlockConfig;

/**
 * Counts one round's replies and decides as early as the outcome is certain: won once a majority granted, lost once
 * the refusals and failures make a majority impossible. Pure and not thread-safe; {@link Round} guards it.
 */
final class QuorumTally {

    enum Decision { PENDING, WON, LOST }

    private final int nodes;
    private final int quorum;
    private int granted;
    private int refused;
    private int failed;

    QuorumTally(int nodes) {
        if (nodes < 1) {
            throw new IllegalArgumentException("nodes must be >= 1, was " + nodes);
        }
        this.nodes = nodes;
        this.quorum = RedlockConfig.quorumOf(nodes);
    }

    void grant() {
        granted++;
    }

    void refuse() {
        refused++;
    }

    void fail() {
        failed++;
    }

    int granted() {
        return granted;
    }

    int failed() {
        return failed;
    }

    int pending() {
        return nodes - granted - refused - failed;
    }

    /** The decision so far; {@code PENDING} while the missing replies could still go either way. */
    Decision decision() {
        if (granted >= quorum) {
            return Decision.WON;
        }
        if (refused + failed > nodes - quorum) {
            return Decision.LOST;
        }
        return Decision.PENDING;
    }

    /** The decision when no more replies will be counted (timeout): missing replies count against. */
    Decision finalDecision() {
        return granted >= quorum ? Decision.WON : Decision.LOST;
    }

    /** True if the refusals alone (nodes that answered "not yours") make a majority impossible. */
    boolean refusalsPreventQuorum() {
        return refused > nodes - quorum;
    }

    /** True if the failures alone (not refusals) make a majority impossible. */
    boolean failuresPreventQuorum() {
        return failed > nodes - quorum;
    }
}
