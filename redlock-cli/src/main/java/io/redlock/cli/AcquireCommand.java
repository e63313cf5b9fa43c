package io.redlock.cli;

import io.redlock.Lease;
import io.redlock.LockTarget;
import io.redlock.QuorumUnreachableException;
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

@Command(name = "acquire", mixinStandardHelpOptions = true,
        description = {"Acquire a lease and print it as JSON.",
            "The JSON has resource, value, token (the fencing token) and validity_ms.",
            "The lease outlives this command: extend or release it with its value."},
        footer = {"%nExamples:",
            "  lease=$(redlock acquire nightly-report --ttl 60s) || exit",
            "  value=$(echo \"$lease\" | sed 's/.*\"value\":\"\\([^\"]*\\)\".*/\\1/')",
            "  redlock acquire orders:42 --wait 5s --nodes redis://h1,redis://h2,redis://h3"})
final class AcquireCommand implements Callable<Integer> {

    @Mixin
    NodeOptions nodes;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "RESOURCE", description = "What to lock.")
    String resource;

    @Option(names = "--ttl", defaultValue = "30s", converter = Durations.class, paramLabel = "DURATION",
            description = "Lease time (default: ${DEFAULT-VALUE}).")
    Duration ttl;

    @Option(names = "--wait", defaultValue = "0s", converter = Durations.class, paramLabel = "DURATION",
            description = "How long to wait for the lock (default: ${DEFAULT-VALUE}).")
    Duration wait;

    @Override
    public Integer call() {
        AcquireOutcome outcome = new AcquireOutcome();
        try (Redlock redlock = nodes.connect(outcome)) {
            Optional<Lease> acquired;
            try {
                acquired = redlock.acquire(resource, ttl, wait);
            } catch (QuorumUnreachableException unreachable) {
                outcome.warnings().print(nodes.nodeTimeout);
                return Outcomes.noQuorum(redlock, LockTarget.of(resource), unreachable.failures(),
                        spec.commandLine().getErr());
            }
            outcome.warnings().print(nodes.nodeTimeout);
            if (acquired.isEmpty()) {
                return Outcomes.notAcquired(redlock, outcome, LockTarget.of(resource), Durations.format(wait),
                        spec.commandLine().getErr());
            }
            Lease lease = acquired.get();
            Outcomes.degraded(redlock, outcome, LockTarget.of(resource), RedlockCli.of(spec).quiet,
                    spec.commandLine().getErr());
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("resource", resource);
            json.put("value", lease.value());
            json.put("token", lease.fencingToken());
            json.put("validity_ms", lease.remainingValidity().toMillis());
            spec.commandLine().getOut().println(Json.of(json));
            return ExitCodes.OK;
        }
    }
}
