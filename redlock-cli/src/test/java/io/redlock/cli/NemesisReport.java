package io.redlock.cli;

import io.redlock.testkit.GuaranteesFile;
import io.redlock.testkit.RedisBinary;
import io.redlock.testkit.history.CheckResult;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report of a randomized run, as the section of docs/GUARANTEES.md it writes: what runs, what is checked, and
 * what this run's clients did, the faults injected and each resource's verdict.
 */
final class NemesisReport {

    private static final String ABOUT = String.join("\n",
            "`NemesisIT` (module redlock-cli) runs clients of every kind at once on 5 lock nodes, each behind a proxy, "
                    + "for a bounded time while a scheduler draws random faults from a seed. On the account: a plain "
                    + "fenced lease, an unfenced one (`fencing(false)`), a blocking `withLock` kept alive by the "
                    + "watchdog, a `RedlockLock`, a lock of the account with a second resource, and two loops of "
                    + "`redlock run` processes whose job reads and writes the account's counter with "
                    + "`REDLOCK_TOKEN`; on the catalog: the write lock (fenced writes), a read lease and the read "
                    + "lock as a `RedlockLock`; on the pool: three holders of a semaphore of 2 permits. Holders "
                    + "work a while (one hold in ten past its TTL) and do fenced read-modify-writes of their "
                    + "resource's counter.",
            "",
            "Faults, at most 2 nodes at once and each for 0.2 to 2.5 s: a node stopped (SIGSTOP), killed and "
                    + "restarted empty after every lease it knew expired, killed and restarted empty at once, its "
                    + "clock jumped 2 to 101 TTLs ahead (and back), answering late (5 % to 40 % of the TTL each way) "
                    + "or cut off; and a `redlock run` process stopped (SIGSTOP) while it holds or waits.",
            "",
            "Checked: holders at once in validity windows within each kind's limit (exclusive holds alone, readers "
                    + "beside readers only, at most 2 permits); an overlap is excused (and counted as detected) only "
                    + "when a fault the table above says the lock does not survive — a restart at once (F4) or a "
                    + "clock jump (F6) — began between the first attempt and the last grant. Token order at the "
                    + "storage and no lost fenced increment are never excused. Overlaps of critical sections "
                    + "(holders working past their validity) are counted: fencing's to cover. `mvn verify` runs it "
                    + "for 1 minute; `-Dnemesis.minutes=N` runs longer, `-Dnemesis.seed=S` replays the fault draws "
                    + "(where each lands among the clients' calls depends on timing), and "
                    + "`-Dnemesis.guarantees=$PWD/docs/GUARANTEES.md` writes this section:",
            "",
            "```bash",
            "mvn -B verify -pl redlock-cli -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \\",
            "    -Dfailsafe.failIfNoSpecifiedTests=false -Dit.test=NemesisIT -Dnemesis.minutes=30 \\",
            "    -Dnemesis.guarantees=$PWD/docs/GUARANTEES.md",
            "```",
            "",
            "A `redlock run` exits 0 when its job's write was accepted, 1 when the write and 4 when the read was refused "
                    + "(a newer token seen), 73 when it did not get the lock within its wait, 75 when the lease was "
                    + "lost while the job ran (its extensions failed, or the command was stopped past its validity), 69 when "
                    + "no majority answered.");

    private final long seed;
    private final double minutes;
    private Map<Integer, Integer> runs = Map.of();

    NemesisReport(long seed, double minutes) {
        this.seed = seed;
        this.minutes = minutes;
    }

    /** The {@code redlock run} processes by exit code. */
    void runs(Map<Integer, Integer> exits) {
        this.runs = exits;
    }

    /** The section, in Markdown, for the clients {@code names}, the {@code verdicts} and the {@code faults}. */
    String write(List<String> names, List<NemesisVerdict> verdicts, List<NemesisFault> faults) {
        StringBuilder out = new StringBuilder(GuaranteesFile.RANDOMIZED_RUN).append("\n\n").append(ABOUT)
                .append("\n\n");
        out.append(String.format(Locale.ROOT, "Last run: %.1f min, seed %d, on %s with %d cores, Java %s, "
                + "redis-server %s.%n%n", minutes, seed,
                ZonedDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"),
                RedisBinary.get().version()));
        out.append("| client | resource | holds granted / refused / unknown | fenced writes accepted / refused |\n");
        out.append("|---|---|---|---|\n");
        for (String name : names) {
            for (NemesisVerdict verdict : verdicts) {
                long[] attempts = verdict.attempts(name);
                if (attempts[0] + attempts[1] + attempts[2] > 0) {
                    long[] writes = verdict.writes(name);
                    out.append(String.format(Locale.ROOT, "| %s | %s | %d / %d / %d | %d / %d |%n", name,
                            verdict.resource, attempts[0], attempts[1], attempts[2], writes[0], writes[1]));
                }
            }
        }
        long[] cli = verdicts.get(0).writes("cli");
        out.append(String.format(Locale.ROOT, "| `redlock run`: %d processes, exit codes %s | %s | - | %d / %d |%n%n",
                runs.values().stream().mapToInt(Integer::intValue).sum(), runs, verdicts.get(0).resource, cli[0],
                cli[1]));
        Map<NemesisFault.Kind, Integer> byKind = new EnumMap<>(NemesisFault.Kind.class);
        faults.forEach(f -> byKind.merge(f.kind(), 1, Integer::sum));
        out.append(String.format(Locale.ROOT, "Faults injected: %d (%s).%n%n", faults.size(), byKind));
        out.append("| resource | overlaps in validity windows, not excused | excused: unsafe fault detected "
                + "| critical-section overlaps | token order at the storage | fenced increments |\n");
        out.append("|---|---|---|---|---|---|\n");
        for (NemesisVerdict v : verdicts) {
            out.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %s | %s |%n", v.resource,
                    v.unexcused.size(), v.excused.size(), v.criticalSectionOverlaps, summary(v, 0), summary(v, 1)));
        }
        return out.toString();
    }

    private static String summary(NemesisVerdict verdict, int check) {
        if (verdict.storage.size() <= check) {
            return "(no fenced writes)";
        }
        CheckResult result = verdict.storage.get(check);
        return result.summary().replace(result.checker() + ": ", "");
    }
}
