package io.redlock.cli;

import io.redlock.NodeFailure;
import io.redlock.Redlock;
import io.redlock.ReleaseResult;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "release", mixinStandardHelpOptions = true,
        description = {"Release a lease taken earlier, known by its value.",
            "For leases taken with 'redlock acquire' by a script that manages them itself."},
        footer = {"%nExamples:",
            "  redlock release nightly-report --value \"$value\""})
final class ReleaseCommand implements Callable<Integer> {

    @Mixin
    NodeOptions nodes;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RESOURCE", description = "The locked resource.")
    String resource;

    @Option(names = "--value", required = true, paramLabel = "VALUE", description = "The lease's value.")
    String value;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        try (Redlock redlock = nodes.connect()) {
            ReleaseResult result = redlock.release(resource, value);
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("resource", resource);
                out.put("released_nodes", result.released());
                out.put("answered", result.answered());
                out.put("confirmed", result.confirmed());
                out.put("unanswered", result.failures().stream().map(NodeFailure::node).toList());
                spec.commandLine().getOut().println(Json.of(out));
            }
            if (!result.confirmed()) {
                err.println("redlock: release of '" + resource + "' not confirmed: " + result.answered() + " of "
                        + redlock.config().nodes().size() + " nodes answered (need " + result.quorum()
                        + "), so the lease may hold until its TTL runs out"
                        + Outcomes.describe(result.failures(), "; no answer from "));
                return ExitCodes.UNAVAILABLE;
            }
            if (result.released() == 0) {
                err.println("redlock: '" + resource
                        + "' was not held with this value on any node that answered (expired, or released already)");
                return ExitCodes.NOT_ACQUIRED;
            }
            return ExitCodes.OK;
        }
    }
}
