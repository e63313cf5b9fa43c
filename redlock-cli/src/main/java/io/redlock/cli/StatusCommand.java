package io.redlock.cli;

import io.redlock.NodeStatus;
import io.redlock.Redlock;
import io.redlock.ResourceStatus.Verdict;
import io.redlock.ResourceStatus;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Show who holds a lock, node by node, and what that adds up to.",
            "Per node: the holder's value (shortened), the remaining TTL, the fencing counter, how "
                    + "many waiters are queued and the first of them. Then the verdict: free, held by VALUE on "
                    + "a majority, or split. Read-only."},
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

    /** The per-node table, each column as wide as its widest value (a fencing token has 16 digits), and the verdict. */
    static void table(ResourceStatus status, PrintWriter out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"NODE", "HOLDER", "TTL", "FENCE", "QUEUE", "HEAD", "SHARED"});
        for (NodeStatus node : status.nodes()) {
            if (node.answered()) {
                rows.add(new String[] {node.node(), node.holder().map(StatusCommand::shorten).orElse("-"),
                    node.ttl().map(Durations::format).orElse("-"),
                    node.fence().isPresent() ? Long.toString(node.fence().getAsLong()) : "-",
                    Long.toString(node.queueLength()), node.queueHead().map(StatusCommand::shorten).orElse("-"),
                    node.sharedBy().isEmpty() ? "-" : Integer.toString(node.sharedBy().size())});
            }
        }
        int[] widths = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        out.println(line(rows.get(0), widths));
        int next = 1;
        for (NodeStatus node : status.nodes()) {
            if (!node.answered()) {
                out.printf("%-" + widths[0] + "s  no answer: %s%n", node.node(), node.problem().orElse(""));
                continue;
            }
            out.println(line(rows.get(next++), widths));
        }
        out.println();
        out.println("verdict: " + verdict(status));
    }

    /** One row: text columns left-aligned, number columns (TTL, FENCE, QUEUE) right-aligned, two spaces apart. */
    private static String line(String[] row, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < row.length; i++) {
            boolean number = i >= 2 && i <= 4;
            String cell = number ? " ".repeat(widths[i] - row[i].length()) + row[i]
                    : row[i] + (i == row.length - 1 ? "" : " ".repeat(widths[i] - row[i].length()));
            line.append(i == 0 ? "" : "  ").append(cell);
        }
        return line.toString();
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
