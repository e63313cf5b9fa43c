package io.redlock.cli;

import io.redlock.LeaseLostException;
import io.redlock.LockKindMismatchException;
import io.redlock.LockNotAcquiredException;
import io.redlock.QuorumUnreachableException;
import io.redlock.RedlockConfigException;
import io.redlock.Secrets;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** The {@code redlock} command; its subcommands are listed in {@link Subcommands}. */
@Command(name = "redlock", mixinStandardHelpOptions = true, versionProvider = BuildInfo.VersionProvider.class,
        description = {"Distributed locks on Redis from the shell: Redlock with fencing tokens.",
            "Nodes come from --nodes or $REDLOCK_NODES (comma-separated redis:// URIs)."},
        footer = {"%nStart here:",
            "  redlock demo                         # the whole story in a minute, no setup",
            "  redlock servers                      # local nodes to try things with",
            "  redlock run nightly -- ./job.sh      # run a job on one machine at a time"})
public final class RedlockCli implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--quiet", scope = ScopeType.INHERIT,
            description = "No warnings about unsafe node setups or nodes that did not take part (redlock doctor"
                    + " has the details).")
    boolean quiet;

    @Option(names = "--verbose", scope = ScopeType.INHERIT,
            description = "Show the libraries' log lines (connections, reconnects) on stderr.")
    boolean verbose;

    @Option(names = "--debug", scope = ScopeType.INHERIT,
            description = "On an internal error, print the stack trace.")
    boolean debug;

    public static void main(String[] args) {
        if (versionOnly(args)) { // the same lines as picocli's --version, without building its model
            for (String line : new BuildInfo.VersionProvider().getVersion()) {
                System.out.println(line);
            }
            System.exit(ExitCodes.OK);
        }
        Secrets secrets = secretsIn(args);
        PrintStream out = Scrubbed.stream(System.out, secrets);
        PrintStream err = Scrubbed.stream(System.err, secrets);
        System.setOut(out); // picocli's tracer, the logging and anything else printing to System.out/err
        System.setErr(err);
        int code = run(new PrintWriter(out, true), new PrintWriter(err, true), secrets, args);
        out.flush();
        err.flush();
        System.exit(code);
    }

    /** True for {@code redlock --version} (or {@code -V}): no subcommand, no other option. */
    static boolean versionOnly(String[] args) {
        return args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"));
    }

    /** Runs the command line in this JVM, printing to {@code out} and {@code err}; returns its exit code. */
    static int execute(PrintWriter out, PrintWriter err, String... args) {
        return run(out, err, secretsIn(args), args);
    }

    private static int run(PrintWriter out, PrintWriter err, Secrets secrets, String... args) {
        CommandLine cli = configure(new CommandLine(new RedlockCli()), Subcommands.neededFor(args));
        cli.setOut(Scrubbed.writer(out, secrets));
        cli.setErr(Scrubbed.writer(err, secrets));
        try {
            return cli.execute(args);
        } finally {
            cli.getOut().flush();
            cli.getErr().flush();
        }
    }

    /** The passwords of every URI in the arguments and in $REDLOCK_NODES. */
    private static Secrets secretsIn(String... args) {
        List<String> texts = new ArrayList<>(List.of(args));
        texts.add(System.getenv(NodeOptions.ENV_NODES));
        return Secrets.of(texts);
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
        cli.setExecutionStrategy(parseResult -> {
            Logging.configure(of(cli.getCommandSpec()).verbose);
            return new CommandLine.RunLast().execute(parseResult);
        });
        cli.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n").exitCodeList(ExitCodes.summary());
        for (CommandLine subcommand : cli.getSubcommands().values()) { // -V, --version: the same lines everywhere
            subcommand.getCommandSpec().versionProvider(new BuildInfo.VersionProvider());
        }
        for (String command : ExitCodes.commands()) {
            CommandLine subcommand = cli.getSubcommands().get(command);
            if (subcommand != null) { // only the subcommand a run names is built
                subcommand.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n")
                        .exitCodeList(ExitCodes.of(command));
            }
        }
        return cli;
    }

    /** The global options (--quiet, --verbose, --debug), wherever on the command line they were given. */
    static RedlockCli of(CommandLine.Model.CommandSpec spec) {
        return (RedlockCli) spec.root().userObject();
    }

    /** Bare {@code redlock}: what to type, on stderr, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine cli = e.getCommandLine();
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && cli.getParent() == null
                && !unmatched.getUnmatched().isEmpty() && !unmatched.getUnmatched().get(0).startsWith("-")) {
            List<String> close = unmatched.getSuggestions();
            cli.getErr().println("redlock: unknown command '" + unmatched.getUnmatched().get(0) + "'; "
                    + (close.isEmpty() ? "" : "did you mean '" + close.get(0) + "'? ") + "the commands are "
                    + String.join(", ", ExitCodes.commands()) + " (see 'redlock --help')");
            return ExitCodes.USAGE;
        }
        cli.getErr().println("redlock: " + oneLine(e.getMessage()) + " (see '"
                + cli.getCommandSpec().qualifiedName() + " --help')");
        return ExitCodes.USAGE;
    }

    private static int failure(Exception thrown, CommandLine cli) {
        Throwable unwrapped = RunCommand.unwrap(thrown);
        Exception e = unwrapped instanceof Exception inner ? inner : thrown;
        if (e instanceof CommandLine.ParameterException usage) { // a check of the command line that parsing cannot do
            return usageError(usage, null);
        }
        PrintWriter err = cli.getErr();
        String message = oneLine(e.getMessage());
        int code = codeOf(e);
        if (code != ExitCodes.SOFTWARE) {
            err.println("redlock: " + message);
            return code;
        }
        if (of(cli.getCommandSpec()).debug) {
            StringWriter trace = new StringWriter();
            e.printStackTrace(new PrintWriter(trace));
            err.print(trace);
        } else {
            err.println("redlock: internal error: " + e.getClass().getSimpleName() + ": " + message
                    + " (--debug prints the stack trace)");
        }
        return ExitCodes.SOFTWARE;
    }

    /** A message on one line, with the user-info of any URI in it masked. */
    private static String oneLine(String message) {
        return Secrets.mask(message).strip().replaceAll("\\s*\\R\\s*", "; ");
    }

    /** The exit code of a command that ended with {@code e}. */
    private static int codeOf(Exception e) {
        if (e instanceof RedlockConfigException || e instanceof LockKindMismatchException) {
            return ExitCodes.USAGE; // bad input, or a resource asked for as another kind of lock than it is held as
        }
        if (e instanceof QuorumUnreachableException) {
            return ExitCodes.UNAVAILABLE;
        }
        if (e instanceof LockNotAcquiredException) {
            return ExitCodes.NOT_ACQUIRED;
        }
        if (e instanceof LeaseLostException) {
            return ExitCodes.LEASE_LOST;
        }
        return ExitCodes.SOFTWARE;
    }
}
