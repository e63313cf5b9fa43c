package io.redlock.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@code redlock run} clients of a randomized run: loops that each start the distribution's command on the
 * account, one after the other, with a job that does a fenced read-modify-write through the
 * {@link NemesisStorageGate} with its {@code REDLOCK_TOKEN}, working a while in between (now and then past the TTL:
 * the command keeps the lease alive). The processes are real client processes the nemesis may pause.
 */
final class NemesisRuns implements AutoCloseable {

    /** The job: the fenced read, the work, the fenced write; exits 0 only if the write was accepted. */
    static final String JOB = String.join("\n",
            "exec 3<>/dev/tcp/127.0.0.1/$1 || exit 3",
            "printf '%s %s\\n' \"$REDLOCK_TOKEN\" \"$REDLOCK_VALUE\" >&3",
            "read -r counter <&3",
            "[ \"$counter\" = stale ] && exit 4",
            "sleep \"$2\"",
            "echo write >&3",
            "read -r reply <&3",
            "[ \"$reply\" = ok ]");
    private static final Duration BOUND = Duration.ofSeconds(30);

    private final Map<String, String> env;
    private final Duration ttl;
    private final int gatePort;
    private final List<Thread> loops = new ArrayList<>();
    private final List<AtomicReference<Cli>> running = new ArrayList<>();
    private final Map<Integer, Integer> exits = new TreeMap<>();
    private final NemesisLog log;
    private volatile boolean stopping;

    /** {@code loops} loops on the nodes {@code env} names, leases of {@code ttl}, jobs reaching {@code gatePort}. */
    NemesisRuns(int loops, Map<String, String> env, Duration ttl, int gatePort, NemesisLog log, long seed) {
        this.env = env;
        this.ttl = ttl;
        this.gatePort = gatePort;
        this.log = log;
        for (int i = 0; i < loops; i++) {
            AtomicReference<Cli> current = new AtomicReference<>();
            Random random = new Random(seed + i);
            running.add(current);
            this.loops.add(new Thread(() -> loop(current, random), "redlock-run-" + (i + 1)));
        }
    }

    NemesisRuns start() {
        loops.forEach(Thread::start);
        return this;
    }

    /** One of the {@code redlock run} processes running now, drawn with {@code random}, if any. */
    Optional<Cli> running(Random random) {
        Cli cli = running.get(random.nextInt(running.size())).get();
        return cli == null || !cli.process.isAlive() ? Optional.empty() : Optional.of(cli);
    }

    /** How many runs ended with each exit code. */
    synchronized Map<Integer, Integer> exits() {
        return Map.copyOf(exits);
    }

    private void loop(AtomicReference<Cli> current, Random random) {
        while (!stopping) {
            long workMillis = random.nextInt(5) == 0 ? ttl.toMillis() * (120 + random.nextInt(80)) / 100
                    : ttl.toMillis() * random.nextInt(40) / 100;
            try {
                Cli cli = Cli.start(env, "run", "--ttl", ttl.toMillis() + "ms", "--wait", ttl.multipliedBy(5)
                        .toMillis() + "ms", "--node-timeout", "200ms", NemesisLog.ACCOUNT, "--", "/bin/bash", "-c",
                        JOB, "job", Integer.toString(gatePort),
                        String.format(Locale.ROOT, "%.3f", workMillis / 1000.0));
                current.set(cli);
                if (!cli.process.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)) {
                    cli.process.destroyForcibly();
                    log.errors.add(new AssertionError("redlock run did not end within " + BOUND + "; stderr:\n"
                            + cli.err()));
                    return;
                }
                current.set(null);
                synchronized (this) {
                    exits.merge(cli.exitCode(), 1, Integer::sum);
                }
                cli.deleteOutput();
            } catch (Exception e) {
                log.errors.add(new AssertionError("redlock run could not be run", e));
                return;
            }
        }
    }

    /** Ends the loops once their current runs end (bounded). */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        for (Thread loop : loops) {
            loop.join(BOUND.plusSeconds(5).toMillis());
        }
    }
}
