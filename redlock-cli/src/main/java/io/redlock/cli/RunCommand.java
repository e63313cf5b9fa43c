package io.redlock.cli;

import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.LeaseWorkException;
import io.redlock.LockNotAcquiredException;
import io.redlock.LockOptions;
import io.redlock.LockTarget;
import io.redlock.QuorumUnreachableException;
import io.redlock.Redlock;
import io.redlock.Secrets;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "run", mixinStandardHelpOptions = true,
        customSynopsis = {"redlock run [OPTIONS] [--permits=N] RESOURCE [--] CMD...",
            "       redlock run [OPTIONS] --resource=RESOURCE... -- CMD...",
            "       redlock run [OPTIONS] (--read | --write)=RESOURCE -- CMD..."},
        description = {"Run a command while holding a lock, like flock(1) across machines.",
            "The lock is RESOURCE's, or the locks of several resources at once (--resource, "
                    + "repeated), a read lock (--read, shared with other readers), a write lock (--write), or "
                    + "one of N permits of RESOURCE's semaphore (--permits N).",
            "The lease is kept alive while the command runs and released when it exits. The command "
                    + "gets REDLOCK_RESOURCE (for several resources, one per line, in the order given), "
                    + "REDLOCK_KIND (lock, several, read, write or permit), REDLOCK_TOKEN (the fencing token; "
                    + "one for all the resources) and REDLOCK_VALUE in its environment. It does not get "
                    + "REDLOCK_NODES if a URI in it holds a password (give nested commands --password-file).",
            "The command runs in a session and process group of its own: a lost lease or --max-hold "
                    + "sends SIGTERM to that whole group, SIGKILL after --grace; SIGINT, SIGTERM and SIGHUP "
                    + "sent to redlock are passed on to the group the same way.",
            "Whatever the command leaves running when it exits is stopped too: the lock is released "
                    + "only once the group is empty. If redlock itself dies (kill -9, a crash) or stalls past "
                    + "the lock's expiry, a watcher process stops the group.",
            "Needs /usr/bin/perl."},
        footer = {"%nExamples:",
            "  redlock run nightly-report -- ./build-report.sh --full",
            "  redlock run --wait 5m --ttl 1m orders-sync -- ./sync-orders.sh",
            "  redlock run --resource orders --resource invoices -- ./sync-orders.sh",
            "  redlock run --read catalog -- ./build-report.sh --full",
            "  redlock run --write catalog --wait 1m -- ./job.sh",
            "  redlock run --permits 3 reports -- ./build-report.sh --full",
            "%nIn a crontab, with full paths (cron's PATH is /usr/bin:/bin):",
            "  REDLOCK_NODES=redis://h1:6379,redis://h2:6379,redis://h3:6379",
            "  */5 * * * * /opt/redlock/bin/redlock run cleanup -- /opt/jobs/cleanup"})
final class RunCommand implements Callable<Integer> {

    /** Exit code when the command cannot be started, as in shells. */
    static final int CANNOT_START = ExitCodes.CANNOT_START;

    @Mixin
    NodeOptions nodes;

    @Mixin
    TargetOptions targets;

    @Spec
    CommandSpec spec;

    @Option(names = "--ttl", defaultValue = "30s", converter = Durations.class, paramLabel = "DURATION",
            description = "Lease time of each acquisition and extension (default: ${DEFAULT-VALUE}).")
    Duration ttl;

    @Option(names = "--wait", defaultValue = "0s", converter = Durations.class, paramLabel = "DURATION",
            description = "How long to wait for the lock (default: ${DEFAULT-VALUE}).")
    Duration wait;

    @Option(names = "--grace", defaultValue = "10s", converter = Durations.class, paramLabel = "DURATION",
            description = "After SIGTERM on a lost lease, how long before SIGKILL (default: ${DEFAULT-VALUE}).")
    Duration grace;

    @Option(names = "--max-hold", defaultValue = "24h", converter = Durations.class, paramLabel = "DURATION",
            description = "Stop extending after this long: the lease is then lost and the command stopped as on any"
                    + " loss, exit 75 (default: ${DEFAULT-VALUE}). Set it above the longest run.")
    Duration maxHold;

    @Parameters(index = "0", arity = "0..1", paramLabel = "RESOURCE",
            description = "What to lock, unless --resource, --read or --write names it.")
    String resource;

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "CMD", description = "The command and its arguments.")
    List<String> command = new ArrayList<>();

    @Override
    public Integer call() {
        TargetOptions.Invocation invocation = targets.resolve(resource, command);
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.isExecutable(Path.of(PerlBinary.PATH))) {
            err.println("redlock: run needs " + PerlBinary.PATH + " (Debian's perl-base) to supervise the command");
            return CANNOT_START;
        }
        LockOptions options = LockOptions.builder().ttl(ttl).maxWait(wait).maxHold(maxHold).build();
        AtomicReference<Job> running = new AtomicReference<>();
        AcquireOutcome outcome = new AcquireOutcome();
        try (Redlock redlock = nodes.connect(outcome)) {
            CompletableFuture<Integer> exit = redlock.<Integer>withLockAsync(invocation.target(), options,
                    lease -> outcome.warnings().printWithin(nodes.nodeTimeout).thenCompose(printed -> {
                        Outcomes.degraded(redlock, outcome, invocation.target(), RedlockCli.of(spec).quiet, err);
                        try {
                            return supervise(invocation, lease, running, err);
                        } catch (IOException e) {
                            throw new CompletionException(e);
                        }
                    })).toCompletableFuture();
            try {
                return exit.join();
            } catch (CompletionException e) {
                Throwable cause = unwrap(e);
                if (cause instanceof LeaseLostException) {
                    return ExitCodes.LEASE_LOST; // the one-line reason was printed when the lease was lost
                }
                if (cause instanceof LockNotAcquiredException) {
                    return Outcomes.notAcquired(redlock, outcome, invocation.target(), Durations.format(wait), err);
                }
                if (cause instanceof QuorumUnreachableException unreachable) {
                    return Outcomes.noQuorum(redlock, invocation.target(), unreachable.failures(), err);
                }
                if (cause instanceof LeaseWorkException && cause.getCause() instanceof IOException io) {
                    err.println("redlock: cannot start the command's supervisor: " + io.getMessage());
                    return CANNOT_START;
                }
                if (cause instanceof RuntimeException runtime) {
                    throw runtime; // e.g. QuorumUnreachableException: mapped to its exit code by RedlockCli
                }
                throw e;
            }
        } finally {
            Signals.restore();
            Job job = running.get();
            if (job != null && !job.ended().isDone()) {
                job.stop("KILL", "redlock is failing"); // never leave a job running without its lock
            }
        }
    }

    /**
     * Starts the job and stops it on a lost lease or a signal; the returned stage completes once the job's whole
     * process group is gone, and only then is the lock released.
     */
    private CompletionStage<Integer> supervise(TargetOptions.Invocation invocation, Lease lease,
            AtomicReference<Job> running, PrintWriter err) throws IOException {
        LockTarget target = invocation.target();
        Job job = Job.start(invocation.command(), environment(target, lease), withheld(System.getenv()), grace,
                lease::remainingValidity, err);
        running.set(job);
        Signals.forwardTo(job);
        lease.onLost((l, reason) -> job.stop("TERM", "lost the lock on " + Outcomes.name(target) + ": "
                + reason.description()));
        return job.ended();
    }

    /**
     * What the command gets in its environment: the resources, one per line in the order given (one resource: just
     * its name), the kind of lock, the fencing token (a lock of several resources has one for all of them) and the
     * lease's value.
     */
    static Map<String, String> environment(LockTarget target, Lease lease) {
        return Map.of("REDLOCK_RESOURCE", String.join("\n", target.resources()), "REDLOCK_KIND", target.kind().tag(),
                "REDLOCK_TOKEN", Long.toString(lease.fencingToken()), "REDLOCK_VALUE", lease.value());
    }

    /**
     * What the command does not inherit from redlock's environment: {@code $REDLOCK_NODES} when a URI in it holds a
     * password (a nested redlock command reads it from {@code --password-file} instead).
     */
    static Set<String> withheld(Map<String, String> inherited) {
        String nodes = inherited.get(NodeOptions.ENV_NODES);
        return nodes != null && !Secrets.mask(nodes).equals(nodes) ? Set.of(NodeOptions.ENV_NODES) : Set.of();
    }

    /** The failure inside CompletionException wrappers, so RedlockCli can map it to its exit code. */
    static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; depth < 16 && cause instanceof CompletionException && cause.getCause() != null; depth++) {
            cause = cause.getCause();
        }
        return cause;
    }
}
