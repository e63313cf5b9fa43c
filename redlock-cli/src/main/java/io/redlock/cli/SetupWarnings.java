package io.redlock.cli;

import io.redlock.Inspection;
import io.redlock.NodeReport;
import io.redlock.Redlock;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Names the node setups that break Redlock's guarantees, once, one stderr line each: a single node or an even
 * number, a replica, an eviction policy other than noeviction, the same server listed twice. The node checks come
 * from {@link Redlock#inspectAsync()}, sent together with the command's first round (no extra round trip); all are
 * printed once that round ended and the inspection answered (a command that fails on bad input prints none). {@code --quiet} silences them; {@code redlock doctor} has the details.
 */
final class SetupWarnings {

    private static final String PREFIX = "redlock: warning: ";
    private static final String MORE = "; redlock doctor tells more";

    private final CompletableFuture<Inspection> inspection;
    private final int nodes;
    private final boolean quiet;
    private final PrintWriter err;
    private final AtomicBoolean printed = new AtomicBoolean();

    private SetupWarnings(CompletableFuture<Inspection> inspection, int nodes, boolean quiet, PrintWriter err) {
        this.inspection = inspection;
        this.nodes = nodes;
        this.quiet = quiet;
        this.err = err;
    }

    /** Starts inspecting the nodes; nothing is printed until the command's first round ended. */
    static SetupWarnings start(Redlock redlock, boolean quiet, PrintWriter err) {
        return new SetupWarnings(redlock.inspectAsync().toCompletableFuture(), redlock.config().nodes().size(), quiet,
                err);
    }

    private static Optional<String> nodeCount(int nodes) {
        if (nodes == 1) {
            return Optional.of("1 node: a single Redis is no fault-tolerant lock (its crash loses every lock);"
                    + " use 3 or 5 independent masters");
        }
        if (nodes % 2 == 0) {
            return Optional.of(nodes + " nodes: an even number tolerates no more failures than " + (nodes - 1)
                    + "; use an odd number");
        }
        return Optional.empty();
    }

    /** Prints the warnings now if the inspection is done, else as soon as it is. Never blocks. */
    void printWhenReady() {
        inspection.whenComplete((report, failure) -> print(Optional.ofNullable(report)));
    }

    /**
     * Prints the warnings once the inspection answered or {@code wait} passed (then only the node count's), without
     * blocking: for work that must start after the warnings, on whatever thread ended the acquisition.
     */
    CompletionStage<Void> printWithin(Duration wait) {
        return inspection.handle((report, failure) -> Optional.ofNullable(report))
                .completeOnTimeout(Optional.empty(), wait.toNanos(), TimeUnit.NANOSECONDS)
                .thenAccept(this::print);
    }

    /** Prints the warnings, waiting for the inspection at most {@code wait} (without it, only the node count's). */
    void print(Duration wait) {
        print(inspected(wait));
    }

    /** The inspection, if it finished within {@code wait}. */
    Optional<Inspection> inspected(Duration wait) {
        try {
            return Optional.of(inspection.get(wait.toNanos(), TimeUnit.NANOSECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (Exception notInTime) {
            return Optional.empty();
        }
    }

    private void print(Optional<Inspection> inspected) {
        if (quiet || !printed.compareAndSet(false, true)) {
            return;
        }
        List<String> lines = new ArrayList<>();
        nodeCount(nodes).ifPresent(lines::add);
        inspected.ifPresent(report -> nodeLines(report, lines));
        synchronized (err) {
            lines.forEach(line -> err.println(PREFIX + line + MORE));
            err.flush();
        }
    }

    private static void nodeLines(Inspection report, List<String> lines) {
        for (NodeReport node : report.nodes()) {
            if (node.reachable() && !node.isMaster()) {
                lines.add(node.node() + " is a replica (role " + node.role().orElse("unknown")
                        + "): Redlock needs independent masters");
            }
            if (node.mayEvictLocks()) {
                lines.add(node.node() + " has maxmemory-policy " + node.maxmemoryPolicy().orElse("?")
                        + ": memory pressure can evict lock keys; use noeviction");
            }
        }
        for (Map.Entry<String, String> twice : report.duplicates().entrySet()) {
            lines.add(twice.getKey() + " is the same server as " + twice.getValue()
                    + " (same run_id): it counts twice towards a majority");
        }
    }
}
