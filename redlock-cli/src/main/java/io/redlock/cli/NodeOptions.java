package io.redlock.cli;

import io.redlock.Redlock;
import io.redlock.RedlockBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** Where the nodes are and how to talk to them; shared by every subcommand that locks. */
final class NodeOptions {

    /** Environment variable with the node URIs, comma-separated, used when --nodes is absent. */
    static final String ENV_NODES = "REDLOCK_NODES";
    /** The environment variable that gives {@code --node-timeout} when the option is not given. */
    static final String ENV_NODE_TIMEOUT = "REDLOCK_NODE_TIMEOUT";

    @Option(names = "--nodes", paramLabel = "URI[,URI...]",
            description = "Redis nodes, comma-separated, e.g. redis://h1:6379,redis://:pass@h2:6379 "
                    + "(default: $" + ENV_NODES + ").")
    List<String> nodes = new ArrayList<>();

    @Option(names = "--password-file", paramLabel = "FILE", defaultValue = "${env:" + PasswordFile.ENV + "}",
            description = "A file whose first line is the password of every node whose URI gives none; only its"
                    + " owner may read or write it (chmod 600). Prefer it to a password in a URI, which every local"
                    + " user sees in ps, and which `run` keeps from its command (default: $" + PasswordFile.ENV
                    + ").")
    Path passwordFile;

    @Option(names = "--key-prefix", paramLabel = "PREFIX", defaultValue = "",
            description = "Prepended to the resource to form the Redis key (default: none).")
    String keyPrefix;

    @Option(names = "--node-timeout", paramLabel = "DURATION", defaultValue = "${env:" + ENV_NODE_TIMEOUT + ":-50ms}",
            converter = Durations.class, description = "How long to wait for one node's reply (default: "
                    + "$" + ENV_NODE_TIMEOUT + ", else 50ms; now ${DEFAULT-VALUE}).")
    Duration nodeTimeout;

    @Option(names = "--fence-counter-ttl", paramLabel = "DURATION", converter = Durations.class,
            description = "How long a resource's fencing counter stays on each node after its last grant "
                    + "(default: the library's, 24h; 0s keeps counters forever).")
    Duration fenceCounterTtl;

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    /** The node URIs in a comma-separated list, without blanks around them or empty entries. */
    static List<String> split(String list) {
        return Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** The node URIs from --nodes, else $REDLOCK_NODES; none is a usage error. */
    List<String> uris() {
        if (!nodes.isEmpty()) {
            return nodes.stream().flatMap(list -> split(list).stream()).toList();
        }
        String env = System.getenv(ENV_NODES);
        if (env != null && !env.isBlank()) {
            return split(env);
        }
        throw new CommandLine.ParameterException(spec.commandLine(),
                "no nodes: give --nodes redis://host:port,... or set " + ENV_NODES);
    }

    RedlockBuilder builder() {
        RedlockBuilder builder = Redlock.builder().nodes(uris()).keyPrefix(keyPrefix).nodeTimeout(nodeTimeout);
        if (passwordFile != null) {
            try {
                builder.password(PasswordFile.read(passwordFile));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        return fenceCounterTtl == null ? builder : builder.fenceCounterTtl(fenceCounterTtl);
    }

    Redlock connect() {
        return builder().build();
    }

    /**
     * Connects with {@code outcome} told how acquisitions end, and starts the setup warnings (printed once the
     * acquisition ended, see {@link AcquireOutcome}).
     */
    Redlock connect(AcquireOutcome outcome) {
        Redlock redlock = builder().build();
        redlock.addObserver(outcome);
        outcome.warnWith(SetupWarnings.start(redlock, RedlockCli.of(spec).quiet, spec.commandLine().getErr()));
        return redlock;
    }
}
