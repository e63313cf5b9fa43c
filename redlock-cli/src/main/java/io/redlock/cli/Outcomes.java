package io.redlock.cli;

import io.redlock.NodeFailure;
import io.redlock.Redlock;
import java.io.PrintWriter;
import java.util.stream.Collectors;

/** Turns "not acquired" into the right exit code: busy (73) or no quorum possible (69). */
final class Outcomes {

    private Outcomes() {
    }

    static int notAcquired(Redlock redlock, AcquireOutcome outcome, String resource, String waited, PrintWriter err) {
        if (outcome.noQuorum()) {
            String failing = outcome.failures().values().stream().map(NodeFailure::toString).sorted()
                    .collect(Collectors.joining("; "));
            err.println("redlock: no quorum for '" + resource + "': " + outcome.failures().size() + " of "
                    + redlock.config().nodes().size() + " nodes failed (need " + redlock.config().quorum() + "): "
                    + failing);
            return ExitCodes.UNAVAILABLE;
        }
        err.println("redlock: '" + resource + "' is held by another client (waited " + waited + ")");
        return ExitCodes.NOT_ACQUIRED;
    }
}
