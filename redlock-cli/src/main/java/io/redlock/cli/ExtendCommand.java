package io.redlock.cli;

import io.redlock.Lease;
import io.redlock.LockTarget;
import io.redlock.Redlock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "extend", mixinStandardHelpOptions = true,
        description = {"Extend a lease taken earlier, known by its value.",
            "For leases taken with 'redlock acquire' by a script that manages them itself."},
        footer = {"%nExamples:",
            "  # $value: from 'redlock acquire' (see its help)",
            "  redlock extend nightly-report --value \"$value\" --ttl 60s"})
final class ExtendCommand implements Callable<Integer> {

    @Mixin
    NodeOptions nodes;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RESOURCE", description = "The locked resource.")
    String resource;

    @Option(names = "--value", required = true, paramLabel = "VALUE", description = "The lease's value.")
    String value;

    @Option(names = "--ttl", defaultValue = "30s", converter = Durations.class, paramLabel = "DURATION",
            description = "New lease time, from now (default: ${DEFAULT-VALUE}).")
    Duration ttl;

    @Option(names = "--json", description = "Print the result as JSON.")
    boolean json;

    @Override
    public Integer call() {
        AcquireOutcome outcome = new AcquireOutcome();
        try (Redlock redlock = nodes.connect(outcome)) {
            Optional<Lease> extended = redlock.extend(resource, value, ttl);
            outcome.warnings().print(nodes.nodeTimeout);
            if (json) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("resource", resource);
                out.put("extended", extended.isPresent());
                out.put("validity_ms", extended.map(l -> l.remainingValidity().toMillis()).orElse(0L));
                spec.commandLine().getOut().println(Json.of(out));
            }
            if (extended.isEmpty() && outcome.failuresPreventQuorum(redlock.config().nodes().size(),
                    redlock.config().quorum())) {
                return Outcomes.noQuorum(redlock, LockTarget.of(resource), outcome.failures().values(), spec.commandLine().getErr());
            }
            if (extended.isEmpty()) {
                spec.commandLine().getErr().println("redlock: '" + resource
                        + "' is no longer held with this value (expired, released or never acquired)");
                return ExitCodes.NOT_ACQUIRED;
            }
            return ExitCodes.OK;
        }
    }
}
