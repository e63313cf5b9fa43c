package io.redlock.cli;

import io.redlock.LeaseLostException;
import io.redlock.LockNotAcquiredException;
import io.redlock.QuorumUnreachableException;
import io.redlock.RedlockConfigException;
import java.io.PrintWriter;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code redlock} command; its subcommands are listed in {@link Subcommands}. */
@Command(name = "redlock", mixinStandardHelpOptions = true, versionProvider = BuildInfo.VersionProvider.class,
        description = {"Distributed locks on Redis from the shell: Redlock with fencing tokens.",
            "Nodes come from --nodes or $REDLOCK_NODES (comma-separated redis:// URIs)."},
        footer = {"%nStart here:",
            "  redlock demo                         # the whole story in a minute, no setup",
            "  redlock servers                      # local nodes to try things with",
            "  redlock run nightly -- ./job.sh      # run a job on one machine at a time"})
public final class RedlockCli implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        if (versionOnly(args)) { // the same lines as picocli's --version, without building its model
            for (String line : new BuildInfo.VersionProvider().getVersion()) {
                System.out.println(line);
            }
            System.exit(ExitCodes.OK);
        }
        System.exit(configure(new CommandLine(new RedlockCli()), Subcommands.neededFor(args)).execute(args));
    }

    /** True for {@code redlock --version} (or {@code -V}): no subcommand, no other option. */
    static boolean versionOnly(String[] args) {
        return args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"));
    }

    /** Runs the command line and returns its exit code. */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /** The whole command, every subcommand included (for help, completion and the man page). */
    static CommandLine commandLine() {
        return configure(new CommandLine(new RedlockCli()), Subcommands.ALL.values());
    }

    static CommandLine configure(CommandLine cli, Iterable<Supplier<Object>> subcommands) {
        for (Supplier<Object> subcommand : subcommands) {
            cli.addSubcommand(subcommand.get());
        }
        cli.setUsageHelpAutoWidth(true); // wrap help to the terminal's width
        cli.setParameterExceptionHandler(RedlockCli::usageError);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> failure(e, commandLine));
        return cli;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine cli = e.getCommandLine();
        PrintWriter err = cli.getErr();
        err.println("redlock: " + Secrets.mask(e.getMessage()));
        err.println("Try '" + cli.getCommandSpec().qualifiedName() + " --help' for more information.");
        return ExitCodes.USAGE;
    }

    private static int failure(Exception thrown, CommandLine cli) {
        Throwable unwrapped = RunCommand.unwrap(thrown);
        Exception e = unwrapped instanceof Exception inner ? inner : thrown;
        PrintWriter err = cli.getErr();
        String message = Secrets.mask(e.getMessage());
        if (e instanceof RedlockConfigException) {
            err.println("redlock: " + message);
            return ExitCodes.USAGE;
        }
        if (e instanceof QuorumUnreachableException) {
            err.println("redlock: " + message);
            return ExitCodes.UNAVAILABLE;
        }
        if (e instanceof LockNotAcquiredException) {
            err.println("redlock: " + message);
            return ExitCodes.NOT_ACQUIRED;
        }
        if (e instanceof LeaseLostException) {
            err.println("redlock: " + message);
            return ExitCodes.LEASE_LOST;
        }
        err.println("redlock: " + e.getClass().getSimpleName() + ": " + message);
        return ExitCodes.SOFTWARE;
    }
}
