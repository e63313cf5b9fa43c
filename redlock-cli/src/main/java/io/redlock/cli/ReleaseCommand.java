package io.redlock.cli;

import io.redlock.Redlock;
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
            "  redlock release nightly-report --value \"$value\"",
            "%nExit codes: 0 released, 73 not held any more (expired, or not this value), 69 no node answers,"
                    + " 64 bad usage."})
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
        try (Redlock redlock = nodes.connect()) {
            int released = redlock.release(resource, value);
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("resource", resource);
                out.put("released_nodes", released);
                spec.commandLine().getOut().println(Json.of(out));
            }
            if (released == 0) {
                spec.commandLine().getErr().println("redlock: '" + resource
                        + "' was not held with this value on any node (expired, or released already)");
                return ExitCodes.NOT_ACQUIRED;
            }
            return ExitCodes.OK;
        }
    }
}
