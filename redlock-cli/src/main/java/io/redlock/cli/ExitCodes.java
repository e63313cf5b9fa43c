package io.redlock.cli;

import io.redlock.RedlockConfig;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command's exit codes, from sysexits(3) where one fits, and the one text that explains them: every command's
 * {@code --help}, the top-level help and the table in docs/CLI.md come from {@link #of(String)} and
 * {@link #markdown()}.
 */
final class ExitCodes {

    static final int OK = 0;
    /** Doctor found a FAIL. */
    static final int CHECK_FAILED = 1;
    /** EX_USAGE: bad input (options, durations, ports, URIs, resource names). */
    static final int USAGE = 64;
    /** EX_UNAVAILABLE: too few nodes answered for a majority (down or hung). */
    static final int UNAVAILABLE = 69;
    /** EX_SOFTWARE: an unexpected error. */
    static final int SOFTWARE = 70;
    /** Held by another client (or, for extend and release, not held with this value any more). */
    static final int NOT_ACQUIRED = 73;
    /** EX_NOPERM: a majority of the nodes refused the credentials or the permissions. */
    static final int NO_PERMISSION = 77;
    /** EX_TEMPFAIL: the lease was lost while the command ran. */
    static final int LEASE_LOST = 75;
    /** The command to run is there but cannot be run (not executable, a directory), as in shells. */
    static final int CANNOT_RUN = 126;
    /** The command to run could not be started (not found), as in shells. */
    static final int CANNOT_START = 127;

    private static final String BAD_INPUT = "bad input: unknown option, bad duration, port outside 1-65535,"
            + " malformed URI, blank resource, a resource named twice or more than "
            + RedlockConfig.MAX_RESOURCES_AT_ONCE + " at once, permits outside 1-" + RedlockConfig.MAX_PERMITS
            + ", a resource held as another kind of lock";
    private static final String NO_QUORUM = "no quorum: too few nodes answered (down or hung); they are named";
    private static final String REFUSED = "a majority of the nodes refused the credentials or permissions"
            + " (WRONGPASS, NOAUTH, NOPERM); they are named";
    private static final String INTERNAL = "internal error, one line (--debug prints the stack trace)";

    /** Per command, in the order of the top-level help: each code and what it means for that command. */
    private static final Map<String, Map<Integer, String>> CONTRACT = contract();

    private ExitCodes() {
    }

    private static Map<String, Map<Integer, String>> contract() {
        Map<String, Map<Integer, String>> all = new LinkedHashMap<>();
        all.put("run", codes(OK, "the command ran; otherwise the command's own exit code is passed on",
                USAGE, BAD_INPUT, UNAVAILABLE, NO_QUORUM, NOT_ACQUIRED, "held by another client within --wait",
                NO_PERMISSION, REFUSED, LEASE_LOST, "the lease was lost while the command ran (it got SIGTERM, then SIGKILL after --grace)",
                CANNOT_RUN, "the command is there but cannot be run (not executable, a directory)",
                CANNOT_START, "the command could not be started (not found)", SOFTWARE, INTERNAL));
        all.put("acquire", codes(OK, "acquired; the lease is printed as JSON", USAGE, BAD_INPUT,
                UNAVAILABLE, NO_QUORUM, NOT_ACQUIRED, "held by another client within --wait", NO_PERMISSION, REFUSED,
                SOFTWARE, INTERNAL));
        all.put("extend", codes(OK, "extended on a majority", USAGE, BAD_INPUT, UNAVAILABLE, NO_QUORUM,
                NOT_ACQUIRED, "no longer held with this value (expired, released or never acquired)",
                SOFTWARE, INTERNAL));
        all.put("release", codes(OK, "released: a majority answered and the value was deleted", USAGE, BAD_INPUT,
                UNAVAILABLE, "fewer than a majority answered (the lease may hold until its TTL); the silent nodes"
                        + " are named",
                NOT_ACQUIRED, "not held with this value on any node that answered (expired or released already)",
                SOFTWARE, INTERNAL));
        all.put("status", codes(OK, "a majority answered: the verdict is free, held or split", USAGE, BAD_INPUT,
                UNAVAILABLE, NO_QUORUM, SOFTWARE, INTERNAL));
        all.put("doctor", codes(OK, "no FAIL row (WARN rows allowed)", CHECK_FAILED, "at least one FAIL row",
                USAGE, BAD_INPUT, SOFTWARE, INTERNAL));
        all.put("servers", codes(OK, "the nodes ran until Ctrl-C", USAGE, BAD_INPUT, SOFTWARE, INTERNAL));
        all.put("demo", codes(OK, "the demo ran and fencing protected every write", USAGE, BAD_INPUT,
                SOFTWARE, "unexpected result or internal error"));
        all.put("bench", codes(OK, "the benchmark ran; otherwise Maven's exit code", USAGE, BAD_INPUT,
                UNAVAILABLE, "not run from a source checkout", SOFTWARE, INTERNAL));
        return all;
    }

    private static Map<Integer, String> codes(Object... pairs) {
        Map<Integer, String> codes = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            codes.put((Integer) pairs[i], (String) pairs[i + 1]);
        }
        return codes;
    }

    /** The commands the contract covers, in order. */
    static List<String> commands() {
        return List.copyOf(CONTRACT.keySet());
    }

    /** The exit codes of {@code command} for its {@code --help}: code, then meaning. */
    static Map<String, String> of(String command) {
        Map<String, String> list = new LinkedHashMap<>();
        CONTRACT.get(command).forEach((code, meaning) -> list.put(padded(code), meaning));
        return list;
    }

    /** {@code code} right-aligned in three columns (not with String.format: its setup costs a start ~5 ms). */
    private static String padded(int code) {
        String digits = Integer.toString(code);
        return " ".repeat(Math.max(0, 3 - digits.length())) + digits;
    }

    /** The contract of all commands for the top-level help: each code once, with its general meaning. */
    static Map<String, String> summary() {
        Map<String, String> list = new LinkedHashMap<>();
        list.put("  0", "done (run: otherwise the command's own exit code)");
        list.put("  1", "doctor found a FAIL row");
        list.put(" 64", BAD_INPUT);
        list.put(" 69", NO_QUORUM + "; release: not confirmed by a majority; bench: not in a source checkout");
        list.put(" 70", INTERNAL + "; demo: an unexpected result");
        list.put(" 73", "held by another client within --wait (extend, release: not held with this value)");
        list.put(" 75", "the lease was lost during run");
        list.put(" 77", REFUSED + " (acquire, run)");
        list.put("126", "run: the command is there but cannot be run (not executable, a directory)");
        list.put("127", "run: the command could not be started (not found)");
        return list;
    }

    /** The table in docs/CLI.md: one row per code, one column per command. */
    static String markdown() {
        StringBuilder table = new StringBuilder("| exit code | meaning | commands |\n|---|---|---|\n");
        summary().forEach((code, meaning) -> {
            int value = Integer.parseInt(code.trim());
            List<String> commands = CONTRACT.entrySet().stream().filter(e -> e.getValue().containsKey(value))
                    .map(e -> "`" + e.getKey() + "`").toList();
            table.append("| ").append(value).append(" | ").append(meaning).append(" | ")
                    .append(String.join(", ", commands)).append(" |\n");
        });
        return table.toString();
    }
}
