package io.redlock.cli;

import io.redlock.Inspection;
import io.redlock.NodeReport;
import io.redlock.Redlock;
import java.io.PrintWriter;

/** Turns "not acquired" into the right exit code: busy (73) or no quorum possible (69). */
final class Outcomes {

    private Outcomes() {
    }

    static int notAcquired(Redlock redlock, String resource, String waited, PrintWriter err) {
        Inspection inspection = redlock.inspect();
        long reachable = inspection.nodes().stream().filter(NodeReport::reachable).count();
        int quorum = redlock.config().quorum();
        if (reachable < quorum) {
            err.println("redlock: no quorum for '" + resource + "': " + reachable + " of " + inspection.nodes().size()
                    + " nodes answer, " + quorum + " needed");
            return ExitCodes.UNAVAILABLE;
        }
        err.println("redlock: '" + resource + "' is held by another client (waited " + waited + ")");
        return ExitCodes.NOT_ACQUIRED;
    }
}
