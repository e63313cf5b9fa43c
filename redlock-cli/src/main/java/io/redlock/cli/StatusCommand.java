package io.redlock.cli;

import io.redlock.NodeStatus;
import io.redlock.Redlock;
import io.redlock.ResourceStatus;
import io.redlock.ResourceStatus.Verdict;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Show who holds a lock, node by node, and what that adds up to.",
            "Per node: the holder's value (shortened), the remaining TTL, the fencing counter, how many",
            "waiters are queued and the first of them. Then the verdict: free, held by VALUE on a majority,",
            "or split. Read-only."},
        footer = {"%nExamples:",
            "  redlock status nightly-report",
            "  redlock status orders:42 --json > status.json   # values in full"})
final class StatusCommand implements Callable<Integer> {

    /** How much of a lease value or waiter id the table shows. */
    static final int SHOWN = 8;

    @Mixin
    NodeOptions nodes;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RESOURCE", description = "The resource to look at.")
    String resource;

    @Option(names = "--json", description = "Print the status as JSON (values in full).")
    boolean json;

    @Override
    public Integer call() {
        ResourceStatus status;
        try (Redlock redlock = nodes.connect()) {
            status = redlock.status(resource);
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.of(json(status)));
        } else {
            table(status, out);
        }
        out.flush();
        return status.verdict() == Verdict.UNKNOWN ? ExitCodes.UNAVAILABLE : ExitCodes.OK;
    }

    private static Map<String, Object> json(ResourceStatus status) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (NodeStatus node : status.nodes()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("node", node.node());
            if (!node.answered()) {
                row.put("error", node.problem().orElse(""));
            } else {
                row.put("holder", node.holder().orElse(null));
                row.put("ttl_ms", node.ttl().map(d -> d.toMillis()).orElse(null));
                row.put("fence", node.fence().isPresent() ? node.fence().getAsLong() : null);
                row.put("queue", node.queueLength());
                row.put("head", node.queueHead().orElse(null));
                row.put("shared_by", node.sharedBy());
            }
            rows.add(row);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("resource", status.resource());
        doc.put("nodes", rows);
        doc.put("answered", status.answered());
        doc.put("quorum", status.quorum());
        doc.put("verdict", status.verdict().name().toLowerCase(Locale.ROOT));
        doc.put("holder", status.holder().orElse(null));
        doc.put("read_locked", status.readLocked());
        doc.put("permits", status.permits().isPresent() ? status.permits().getAsInt() : null);
        doc.put("shared_by", status.sharedBy());
        return doc;
    }

    private static void table(ResourceStatus status, PrintWriter out) {
        int width = Math.max(4, status.nodes().stream().mapToInt(n -> n.node().length()).max().orElse(4));
        String row = "%-" + width + "s  %-11s  %8s  %6s  %5s  %-11s  %s%n";
        out.printf(row, "NODE", "HOLDER", "TTL", "FENCE", "QUEUE", "HEAD", "SHARED");
        for (NodeStatus node : status.nodes()) {
            if (!node.answered()) {
                out.printf("%-" + width + "s  no answer: %s%n", node.node(), node.problem().orElse(""));
                continue;
            }
            out.printf(row, node.node(), node.holder().map(StatusCommand::shorten).orElse("-"),
                    node.ttl().map(Durations::format).orElse("-"),
                    node.fence().isPresent() ? Long.toString(node.fence().getAsLong()) : "-", node.queueLength(),
                    node.queueHead().map(StatusCommand::shorten).orElse("-"),
                    node.sharedBy().isEmpty() ? "-" : Integer.toString(node.sharedBy().size()));
        }
        out.println();
        out.println("verdict: " + verdict(status));
    }

    private static String verdict(ResourceStatus status) {
        int nodes = status.nodes().size();
        return switch (status.verdict()) {
            case HELD -> {
                String holder = status.holder().orElseThrow();
                long holding = status.nodes().stream().filter(n -> n.holder().filter(holder::equals).isPresent())
                        .count();
                yield heldBy(status, holder) + " on " + holding + " of " + nodes + " nodes (need " + status.quorum()
                        + ")";
            }
            case FREE -> "free (" + status.answered() + " of " + nodes + " nodes answered)";
            case SPLIT -> "split: no value holds a majority and no majority is free (need " + status.quorum()
                    + " of " + nodes + ")";
            case UNKNOWN -> "unknown: only " + status.answered() + " of " + nodes + " nodes answered (need "
                    + status.quorum() + ")";
        };
    }

    /** Who holds it: a lease, the readers of a read lock, or permit holders of a semaphore (those on a majority). */
    private static String heldBy(ResourceStatus status, String holder) {
        int shared = status.sharedBy().size();
        if (status.readLocked()) {
            return "read-locked by " + shared + (shared == 1 ? " reader" : " readers");
        }
        if (status.permits().isPresent()) {
            return shared + " of " + status.permits().getAsInt() + " permits held";
        }
        return "held by " + shorten(holder);
    }

    /** The first {@link #SHOWN} characters and an ellipsis: enough to tell leases apart. */
    static String shorten(String value) {
        return value.length() <= SHOWN + 1 ? value : value.substring(0, SHOWN) + "...";
    }
}
