package io.redlock.cli;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;

/**
 * The subcommands of {@code redlock}, by name. A run builds picocli's model only for the subcommand it names (the
 * model of all of them costs a noticeable part of a short command's startup); help, completion and the man page, and
 * anything that names no known subcommand, get all of them.
 */
final class Subcommands {

    static final Map<String, Supplier<Object>> ALL = all();

    private Subcommands() {
    }

    private static Map<String, Supplier<Object>> all() {
        Map<String, Supplier<Object>> all = new LinkedHashMap<>();
        all.put("run", RunCommand::new);
        all.put("acquire", AcquireCommand::new);
        all.put("extend", ExtendCommand::new);
        all.put("release", ReleaseCommand::new);
        all.put("status", StatusCommand::new);
        all.put("doctor", DoctorCommand::new);
        all.put("servers", ServersCommand::new);
        all.put("demo", DemoCommand::new);
        all.put("bench", BenchCommand::new);
        all.put("help", CommandLine.HelpCommand::new);
        return all;
    }

    /**
     * The subcommands a run with {@code args} needs: the one named by the first argument that is not an option,
     * when it is a subcommand; otherwise all of them (help lists them, picocli suggests one for a typo).
     */
    static Iterable<Supplier<Object>> neededFor(String[] args) {
        for (String arg : args) {
            if (!arg.startsWith("-")) {
                Supplier<Object> named = arg.equals("help") ? null : ALL.get(arg);
                return named == null ? ALL.values() : List.of(named);
            }
        }
        return ALL.values();
    }
}
