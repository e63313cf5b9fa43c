package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.Redlock;
import io.redlock.RetryPolicy;
import io.redlock.cli.NemesisClient.Kind;
import io.redlock.fencing.FencedRedis;
import io.redlock.testkit.GuaranteesFile;
import io.redlock.testkit.history.Event;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A randomized fault run across every lock kind at once: in-process clients of every kind ({@link NemesisClient})
 * and {@code redlock run} processes ({@link NemesisRuns}) contend on three resources while {@link Nemesis} injects
 * random minority faults, then {@link NemesisVerdict} checks what was recorded. Runs {@code -Dnemesis.minutes}
 * minutes (default 1), from {@code -Dnemesis.seed} (default: drawn and printed); the report goes to
 * {@code target/nemesis-report.md}, and, from a run that held, to the section of the file
 * {@code -Dnemesis.guarantees} names (docs/GUARANTEES.md).
 */
class NemesisIT {

    private static final Duration TTL = Duration.ofMillis(600);
    /** The {@code redlock run} leases' TTL: the longest lease of the run. */
    private static final Duration RUN_TTL = Duration.ofSeconds(1);

    @Test
    void noClaimOfTheGuaranteesBreaksUnderRandomMinorityFaults() throws Exception {
        double minutes = Double.parseDouble(System.getProperty("nemesis.minutes", "1"));
        long seed = Long.getLong("nemesis.seed", System.nanoTime());
        System.out.println("nemesis: seed " + seed + " (replay the fault draws with -Dnemesis.seed=" + seed + ")");
        NemesisLog log = new NemesisLog();
        List<NemesisClient> clients = new ArrayList<>();
        List<Redlock> redlocks = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        List<NemesisFault> faults;
        NemesisReport report = new NemesisReport(seed, minutes);
        try (NemesisNodes nodes = new NemesisNodes();
                StatefulRedisConnection<String, String> storage = nodes.storageConnection()) {
            FencedRedis fenced = FencedRedis.on(storage);
            List<String> names = new ArrayList<>();
            for (Kind kind : Kind.values()) {
                int count = kind == Kind.PERMIT ? NemesisLog.PERMITS + 1 : 1;
                for (int i = 1; i <= count; i++) {
                    Redlock redlock = Redlock.builder().nodes(nodes.uris()).nodeTimeout(Duration.ofMillis(100))
                            .retry(RetryPolicy.uniform(Duration.ofMillis(20), Duration.ofMillis(60)))
                            .fencing(kind != Kind.UNFENCED).build();
                    redlocks.add(redlock);
                    String process = kind.name().toLowerCase().replace('_', '-') + (count > 1 ? "-" + i : "");
                    names.add(process);
                    clients.add(new NemesisClient(kind, process, redlock, fenced, TTL, log, seed + names.size()));
                }
            }
            try (NemesisStorageGate gate = new NemesisStorageGate(fenced, log.account, NemesisLog.ACCOUNT);
                    NemesisRuns runs = new NemesisRuns(2, Map.of(NodeOptions.ENV_NODES, String.join(",",
                            nodes.uris())), RUN_TTL, gate.port(), log, seed + 100)) {
                clients.forEach(client -> threads.add(new Thread(client, client.process())));
                threads.forEach(Thread::start);
                runs.start();
                try (Nemesis nemesis = new Nemesis(nodes, RUN_TTL, runs::running, seed).start()) {
                    Thread.sleep((long) (minutes * 60_000));
                    nemesis.close(); // heals every fault still on
                    faults = nemesis.faults();
                }
                clients.forEach(NemesisClient::stop);
                for (Thread thread : threads) {
                    thread.join(Duration.ofSeconds(30).toMillis());
                }
                runs.close();
                report.runs(runs.exits());
            }
            Set<String> readers = Set.of("reader", "read-lock");
            List<NemesisVerdict> verdicts = List.of(
                    new NemesisVerdict(NemesisLog.ACCOUNT, log.account, e -> false, 0,
                            counter(storage, NemesisLog.ACCOUNT), faults),
                    new NemesisVerdict(NemesisLog.CATALOG, log.catalog, e -> readers.contains(e.process()),
                            Integer.MAX_VALUE, counter(storage, NemesisLog.CATALOG), faults),
                    new NemesisVerdict(NemesisLog.POOL, log.pool, (Event e) -> true, NemesisLog.PERMITS, null,
                            faults));
            String written = report.write(names, verdicts, faults);
            Files.writeString(Path.of("target", "nemesis-report.md"), written);
            System.out.println(written);
            verdicts.forEach(verdict -> System.out.print(verdict.findings()));
            assertThat(log.errors).as("clients that failed").isEmpty();
            for (NemesisVerdict verdict : verdicts) {
                assertThat(verdict.held()).as(verdict.findings()).isTrue();
            }
            for (String name : names) {
                NemesisVerdict of = verdicts.stream().filter(v -> v.attempts(name)[0] + v.attempts(name)[1]
                        + v.attempts(name)[2] > 0).findFirst().orElseThrow(() -> new AssertionError(name
                                + " made no attempt"));
                assertThat(of.attempts(name)[0]).as("holds %s got", name).isPositive();
            }
            assertThat(verdicts.get(0).writes("cli")[0]).as("fenced writes of redlock run jobs accepted")
                    .isPositive();
            assertThat(faults).as("faults injected").isNotEmpty();
            String guarantees = System.getProperty("nemesis.guarantees", "");
            if (!guarantees.isBlank()) { // only from a run that held
                GuaranteesFile.replaceSection(Path.of(guarantees), GuaranteesFile.RANDOMIZED_RUN, written);
            }
        } finally {
            redlocks.forEach(Redlock::close);
        }
    }

    private static Long counter(StatefulRedisConnection<String, String> storage, String resource) {
        String value = storage.sync().get(NemesisLog.counter(resource));
        return value == null ? 0L : Long.valueOf(value);
    }
}
