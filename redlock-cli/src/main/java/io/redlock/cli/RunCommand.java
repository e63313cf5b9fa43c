package io.redlock.cli;

import io.redlock.LeaseLostException;
import io.redlock.LeaseWorkException;
import io.redlock.LockNotAcquiredException;
import io.redlock.LockOptions;
import io.redlock.LossReason;
import io.redlock.Redlock;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run a command while holding a lock, like flock(1) across machines.",
            "The lease is kept alive while the command runs and released when it exits; the command gets",
            "REDLOCK_RESOURCE, REDLOCK_TOKEN (the fencing token) and REDLOCK_VALUE in its environment.",
            "If the lease is lost, the command gets SIGTERM, then SIGKILL after --grace.",
            "SIGINT and SIGTERM sent to redlock are passed on to the command."},
        footer = {"%nExamples:",
            "  redlock run nightly-report -- ./build-report.sh --full",
            "  redlock run --wait 5m --ttl 1m orders-sync -- ./sync-orders.sh",
            "%nIn a crontab, with full paths (cron's PATH is /usr/bin:/bin):",
            "  REDLOCK_NODES=redis://h1:6379,redis://h2:6379,redis://h3:6379",
            "  */5 * * * * /opt/redlock/bin/redlock run cleanup -- /opt/jobs/cleanup",
            "%nExit codes: the command's own; 73 held by another client within --wait;",
            "75 lease lost (the command was stopped); 69 no quorum; 64 bad usage;",
            "127 the command could not be started."})
final class RunCommand implements Callable<Integer> {

    /** Exit code when the command cannot be started, as in shells. */
    static final int CANNOT_START = 127;

    @Mixin
    NodeOptions nodes;

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
            description = {"Stop extending after this long (SPEC R8): the lease is then lost and the command",
                "stopped as on any loss, exit 75 (default: ${DEFAULT-VALUE}). Set it above the longest run."})
    Duration maxHold;

    @Parameters(index = "0", paramLabel = "RESOURCE", description = "What to lock.")
    String resource;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "CMD", description = "The command and its arguments.")
    List<String> command;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        LockOptions options = LockOptions.builder().ttl(ttl).maxWait(wait).maxHold(maxHold).build();
        ScheduledExecutorService killer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "redlock-run-killer");
            thread.setDaemon(true);
            return thread;
        });
        AtomicReference<Process> child = new AtomicReference<>();
        AcquireOutcome outcome = new AcquireOutcome();
        try (Redlock redlock = nodes.connect(outcome)) {
            CompletableFuture<Integer> exit = redlock.<Integer>withLockAsync(resource, options, lease -> {
                ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
                Map<String, String> env = builder.environment();
                env.put("REDLOCK_RESOURCE", resource);
                env.put("REDLOCK_TOKEN", Long.toString(lease.fencingToken()));
                env.put("REDLOCK_VALUE", lease.value());
                Process process = builder.start();
                child.set(process);
                Signals.forwardTo(process);
                lease.onLost((l, reason) -> stop(process, reason, killer, err));
                return process.onExit().thenApply(Process::exitValue);
            }).toCompletableFuture();
            try {
                return exit.join();
            } catch (CompletionException e) {
                Throwable cause = unwrap(e);
                if (cause instanceof LeaseLostException) {
                    return ExitCodes.LEASE_LOST; // the one-line reason was printed when the lease was lost
                }
                if (cause instanceof LockNotAcquiredException) {
                    return Outcomes.notAcquired(redlock, outcome, resource, Durations.format(wait), err);
                }
                if (cause instanceof LeaseWorkException && cause.getCause() instanceof IOException io) {
                    err.println("redlock: cannot start " + command.get(0) + ": " + io.getMessage());
                    return CANNOT_START;
                }
                if (cause instanceof RuntimeException runtime) {
                    throw runtime; // e.g. QuorumUnreachableException: mapped to its exit code by RedlockCli
                }
                throw e;
            }
        } finally {
            Signals.restore();
            killer.shutdownNow();
            Process process = child.get();
            if (process != null && process.isAlive()) {
                process.destroyForcibly();
            }
        }
    }

    /** The failure inside CompletionException wrappers, so RedlockCli can map it to its exit code. */
    static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        for (int depth = 0; depth < 16 && cause instanceof CompletionException && cause.getCause() != null; depth++) {
            cause = cause.getCause();
        }
        return cause;
    }

    private void stop(Process process, LossReason reason, ScheduledExecutorService killer, PrintWriter err) {
        err.println("redlock: lost the lock on '" + resource + "': " + reason.description()
                + "; sent SIGTERM to the command (SIGKILL in " + Durations.format(grace) + ")");
        err.flush();
        process.destroy();
        killer.schedule(() -> {
            if (process.isAlive()) {
                err.println("redlock: the command was still running " + Durations.format(grace)
                        + " after SIGTERM; sent SIGKILL");
                err.flush();
                process.destroyForcibly();
            }
        }, grace.toMillis(), TimeUnit.MILLISECONDS);
    }
}
