package io.redlock.cli;

import io.redlock.LockTarget;
import io.redlock.RedlockConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * What {@code run} holds ({@link LockTarget}): the lock of the RESOURCE argument, or the lock an option names —
 * several resources at once ({@code --resource}, repeated), a read lock ({@code --read}) or a write lock
 * ({@code --write}); with {@code --permits N}, a permit of the one resource's semaphore of N permits. With an option
 * (but --permits), the command line has no RESOURCE and the command follows {@code --}, so that
 * nothing on it is taken for a resource or a command by mistake. A new kind of lock is an option here and a line: in
 * {@link #named()} for one its option names (as {@code --read R}), in {@link #one} for one that changes how a single
 * resource is held (say {@code --permits N}, a permit of its semaphore).
 */
final class TargetOptions {

    /** The arguments of a run: what to lock, and the command to run under it. */
    record Invocation(LockTarget target, List<String> command) {
    }

    @Option(names = "--resource", paramLabel = "RESOURCE",
            description = {"Hold the locks of several resources at once: repeat it, one resource each (at most "
                + RedlockConfig.MAX_RESOURCES_AT_ONCE + ", none twice). All are taken or none, so no deadlock"
                + " whatever their order. Given once, the same as RESOURCE. The command then follows --."})
    List<String> resources = new ArrayList<>();

    @Option(names = "--read", paramLabel = "RESOURCE",
            description = {"Hold RESOURCE's read lock: shared with other readers, refused while a writer holds it"
                + " or waits for it. The command then follows --."})
    String read;

    @Option(names = "--write", paramLabel = "RESOURCE",
            description = {"Hold RESOURCE's write lock: its plain lock, so it excludes readers, writers and"
                + " 'redlock run RESOURCE'. The command then follows --."})
    String write;

    @Option(names = "--permits", paramLabel = "N",
            description = {"Hold one of N permits of RESOURCE's semaphore: at most N runs of RESOURCE at once, on"
                + " every machine (1 to " + RedlockConfig.MAX_PERMITS + "; every user of RESOURCE gives the same N)."
                + " With RESOURCE, or one --resource."})
    Integer permits;

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    /** The locks the options name, by option, in the order of the help: none when RESOURCE names the lock. */
    private Map<String, LockTarget> named() {
        Map<String, LockTarget> named = new LinkedHashMap<>();
        if (!resources.isEmpty()) {
            named.put("--resource", resources.size() == 1 ? one(resources.get(0)) : LockTarget.all(resources));
        }
        if (read != null) {
            named.put("--read", LockTarget.read(read));
        }
        if (write != null) {
            named.put("--write", LockTarget.write(write));
        }
        return named;
    }

    /**
     * What to lock and the command, from the positional arguments: {@code resource} (the first, if any) and
     * {@code rest}. Without a lock option, RESOURCE's lock and the rest, as {@code run} always took them; with one,
     * the lock it names and the arguments after {@code --}, with none before it. The targets' own rules (blank, too
     * many or repeated resources) are the library's, checked when the lock is asked for.
     *
     * @throws CommandLine.ParameterException on a command line that is not one of these forms
     */
    Invocation resolve(String resource, List<String> rest) {
        Map<String, LockTarget> named = named();
        List<String> positional = new ArrayList<>();
        if (resource != null) {
            positional.add(resource);
        }
        positional.addAll(rest);
        if (named.isEmpty()) {
            if (resource == null) {
                throw usage("Missing required parameters: 'RESOURCE', 'CMD' (or name the lock with --resource,"
                        + " --read or --write)");
            }
            return new Invocation(one(resource), command(rest));
        }
        String options = String.join(" and ", named.keySet());
        LockTarget byResource = named.get("--resource");
        if (permits != null && (byResource == null || byResource.kind() != LockTarget.Kind.PERMIT)) {
            throw usage("--permits holds a permit of one resource's semaphore: give it with RESOURCE or one"
                    + " --resource, not with " + options);
        }
        if (named.size() > 1) {
            throw usage(options + " do not combine: give one of them (a read or write lock is of one resource)");
        }
        List<String> args = spec.commandLine().getParseResult().expandedArgs();
        int delimiter = args.indexOf("--");
        if (delimiter < 0) {
            throw usage("with " + options + ", put -- before the command");
        }
        int before = positional.size() - (args.size() - delimiter - 1);
        if (before > 0) {
            throw usage("RESOURCE '" + positional.get(0) + "' and " + options + " both name what to lock: give one"
                    + " of them (with " + options + ", only the command follows --)");
        }
        return new Invocation(named.values().iterator().next(), command(positional));
    }

    /** The lock of the one resource RESOURCE or a single {@code --resource} names: with --permits, a permit. */
    private LockTarget one(String resource) {
        return permits == null ? LockTarget.of(resource) : LockTarget.permit(resource, permits);
    }

    private List<String> command(List<String> command) {
        if (command.isEmpty()) {
            throw usage("Missing required parameter: 'CMD' (the command to run)");
        }
        return List.copyOf(command);
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
