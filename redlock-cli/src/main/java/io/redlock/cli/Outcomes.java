package io.redlock.cli;

import io.redlock.Inspection;
import io.redlock.LockTarget;
import io.redlock.NodeFailure;
import io.redlock.Redlock;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** Turns "not acquired" into the right exit code and its one line: busy (73) or no quorum possible (69). */
final class Outcomes {

    /** How long a failed command waits for the node inspection to tell a listed-twice server from a holder. */
    private static final Duration INSPECTION_WAIT = Duration.ofSeconds(1);

    private Outcomes() {
    }

    /** How messages name what is locked: {@code 'job'}, or {@code [a, b]} for several resources (the library's name). */
    static String name(LockTarget target) {
        return target.kind() == LockTarget.Kind.SEVERAL ? target.name() : "'" + target.name() + "'";
    }

    static int notAcquired(Redlock redlock, AcquireOutcome outcome, LockTarget target, String waited,
            PrintWriter err) {
        Collection<NodeFailure> failures = outcome.failures().values();
        if (outcome.noQuorum()) {
            return noQuorum(redlock, target, failures, err);
        }
        // a server listed twice refuses its own grant under its second name: that is not another holder
        Map<String, String> twice = Optional.ofNullable(outcome.warnings())
                .flatMap(w -> w.inspected(INSPECTION_WAIT)).map(Inspection::duplicates).orElse(Map.of());
        int nodes = redlock.config().nodes().size();
        if (!twice.isEmpty() && failures.size() + twice.size() > nodes - redlock.config().quorum()) {
            err.println("redlock: no quorum for " + name(target) + ": " + failures.size() + " of " + nodes
                    + " nodes failed and " + twice.size() + " " + (twice.size() == 1 ? "is" : "are")
                    + " the same server as another (" + twice.entrySet().stream().map(e -> e.getKey() + " = "
                            + e.getValue()).collect(Collectors.joining(", ")) + "), so no majority of independent"
                    + " nodes can grant it (need " + redlock.config().quorum() + ")" + describe(failures, ": "));
            return ExitCodes.UNAVAILABLE;
        }
        err.println("redlock: " + busy(target) + " (waited " + waited + ")");
        return ExitCodes.NOT_ACQUIRED;
    }

    /** What refused {@code target}, in the words of its kind. */
    static String busy(LockTarget target) {
        return switch (target.kind()) {
            case PERMIT -> "all " + target.permits() + " permits of " + name(target) + " are held by other clients";
            case READ -> name(target) + " is write-locked, or a writer waits for it";
            default -> name(target) + " is held by another client";
        };
    }

    /**
     * Too many nodes failed for a majority: one line naming each failed node and why; 77 when a majority refused the
     * credentials or permissions (a configuration to fix, not a node to wait for), else 69.
     */
    static int noQuorum(Redlock redlock, LockTarget target, Collection<NodeFailure> failures, PrintWriter err) {
        int nodes = redlock.config().nodes().size();
        int quorum = redlock.config().quorum();
        long refused = failures.stream().filter(NodeFailure::accessRefused).count();
        if (refused >= quorum) {
            err.println("redlock: not permitted to lock " + name(target) + ": " + refused + " of " + nodes
                    + " nodes refused the credentials or permissions (need " + quorum + " to accept them)"
                    + describe(failures, ": "));
            return ExitCodes.NO_PERMISSION;
        }
        err.println("redlock: no quorum for " + name(target) + ": " + failures.size() + " of " + nodes
                + " nodes failed (need " + quorum + ")" + describe(failures, ": "));
        return ExitCodes.UNAVAILABLE;
    }

    /**
     * After an acquisition that some nodes did not take part in: one line naming them and why, unless
     * {@code quiet}. The lock holds on a majority; with fewer nodes to spare the next fault may stop it. Named are the
     * nodes whose failure was known when the majority decided the round (down, refusing, erring at once); one that
     * answers later, or not at all, is not waited for.
     */
    static void degraded(Redlock redlock, AcquireOutcome outcome, LockTarget target, boolean quiet, PrintWriter err) {
        Collection<NodeFailure> failures = outcome.failures().values();
        if (quiet || failures.isEmpty()) {
            return;
        }
        int nodes = redlock.config().nodes().size();
        err.println("redlock: acquired " + name(target) + " on " + (nodes - failures.size()) + " of " + nodes
                + " nodes; not taking part" + describe(failures, ": "));
    }

    /** Each failed node and why, sorted, after {@code lead}; empty for none. */
    static String describe(Collection<NodeFailure> failures, String lead) {
        return failures.isEmpty() ? "" : lead + failures.stream().map(NodeFailure::toString).sorted()
                .collect(Collectors.joining("; "));
    }
}
