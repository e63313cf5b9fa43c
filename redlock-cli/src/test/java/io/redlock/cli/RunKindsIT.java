package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.RedlockConfig;
import io.redlock.RedlockReadWriteLock;
import io.redlock.internal.protocol.Keys;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * redlock run of every kind of lock — several resources at once, a read lock, a write lock — as a separate process
 * against real nodes: the command runs holding what the options name (checked from another client and with raw
 * {@code SETNX}), a loss stops it, no lock key is left after, and a bad target writes nothing.
 */
@WithRedisNodes(3)
class RunKindsIT {

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final Duration START = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private static Map<String, String> env(RedisNodes nodes) {
        return TestNodes.env(nodes);
    }

    private static Redlock client(RedisNodes nodes) {
        return TestNodes.client(nodes);
    }

    /** Starts {@code redlock run} with {@code args}, waiting up to 10 s for a lock that should be free. */
    private static Cli startRun(RedisNodes nodes, String... args) throws Exception {
        return Cli.start(env(nodes), runArgs("10s", args));
    }

    /** Runs {@code redlock run} with {@code args} to its end, not waiting for the lock. */
    private static Cli run(RedisNodes nodes, String... args) throws Exception {
        return Cli.run(env(nodes), runArgs("0s", args));
    }

    private static String[] runArgs(String wait, String... args) {
        List<String> all = new ArrayList<>(List.of("run", "--wait", wait));
        all.addAll(List.of(args));
        return all.toArray(String[]::new);
    }

    /** A job that records what it got, says it started, and runs until the test creates {@code go}. */
    private String holdUntilGo(String name) {
        Path out = dir.resolve(name);
        return "printf '%s\\n' \"$REDLOCK_RESOURCE\" > " + out + ".resources; echo \"$REDLOCK_KIND $REDLOCK_TOKEN"
                + " $REDLOCK_VALUE\" > " + out + ".env; touch " + out + ".started; while [ ! -e " + dir.resolve("go")
                + " ]; do sleep 0.05; done";
    }

    private void awaitStarted(String name, Cli cli) throws Exception {
        Path started = dir.resolve(name + ".started");
        await().atMost(START).until(() -> Files.exists(started) || !cli.process.isAlive());
        assertThat(started).as("the command started; redlock's stderr: " + cli.err()).exists();
    }

    private void go() throws Exception {
        Files.createFile(dir.resolve("go"));
    }

    /** Every key on the nodes but the fencing counters, which outlive the lock by design (--fence-counter-ttl). */
    private static List<String> lockKeys(RedisNodes nodes) {
        List<String> keys = new ArrayList<>();
        for (RedisServer node : nodes) {
            keys.addAll(node.redis(r -> r.keys("*")).stream()
                    .filter(key -> !key.endsWith(Keys.FENCE_SUFFIX)).toList());
        }
        return keys;
    }

    private static void awaitNoLockKeyLeft(RedisNodes nodes) {
        // released once a majority answered; the last node's delete may land a moment after redlock exits; the bound
        // stays under the TTL, so what it sees is the release, not the expiry
        await().atMost(TTL.dividedBy(2)).until(() -> lockKeys(nodes).isEmpty());
    }

    @Test
    void severalResourcesAreHeldTogetherWhileTheCommandRunsWithOneTokenAndAllAreReleasedAfter(RedisNodes nodes)
            throws Exception {
        try (Redlock other = client(nodes)) {
            long earlier;
            try (Lease lease = other.acquire("kinds:b", TTL, TTL).orElseThrow()) {
                earlier = lease.fencingToken();
            }
            Cli cli = startRun(nodes, "--resource", "kinds:a", "--resource", "kinds:b", "--", "sh", "-c",
                    holdUntilGo("job") + "; exit 4");
            awaitStarted("job", cli);
            for (String resource : List.of("kinds:a", "kinds:b")) {
                assertThat(other.tryAcquire(resource, TTL)).as(resource).isEmpty();
                for (RedisServer node : nodes) {
                    Boolean set = node.redis(r -> r.setnx(resource, "another-client"));
                    assertThat(set).as(resource + " on " + node).isFalse();
                }
            }
            go();
            assertThat(cli.waitFor()).as(cli.err()).isEqualTo(4); // the command's exit code, as for one resource
            assertThat(Files.readAllLines(dir.resolve("job.resources"))).containsExactly("kinds:a", "kinds:b");
            String[] env = Files.readString(dir.resolve("job.env")).trim().split(" ");
            assertThat(env[0]).isEqualTo("several");
            assertThat(Long.parseLong(env[1])).isGreaterThan(earlier); // above each resource's earlier tokens
            assertThat(env[2]).hasSize(27);
            awaitNoLockKeyLeft(nodes);
        }
    }

    @Test
    void severalResourcesOneOfThemBusyIs73NamingThem(RedisNodes nodes) throws Exception {
        try (Redlock other = client(nodes)) {
            Lease held = other.acquire("busy:b", TTL, TTL).orElseThrow();
            Cli cli = run(nodes, "--resource", "busy:a", "--resource", "busy:b", "--", "true");
            assertThat(cli.exitCode()).as(cli.err()).isEqualTo(ExitCodes.NOT_ACQUIRED);
            assertThat(cli.err()).contains("[busy:a, busy:b] is held by another client");
            held.release();
            awaitNoLockKeyLeft(nodes); // busy:a was not left taken
        }
    }

    @Test
    void twoReadersShareTheReadLockWhileWritersAreRefused(RedisNodes nodes) throws Exception {
        Cli first = startRun(nodes, "--read", "kinds:r", "--", "sh", "-c", holdUntilGo("first"));
        Cli second = startRun(nodes, "--read", "kinds:r", "--", "sh", "-c", holdUntilGo("second"));
        awaitStarted("first", first);
        awaitStarted("second", second); // both hold the read lock at once
        try (Redlock other = client(nodes)) {
            RedlockReadWriteLock lock = other.readWriteLock("kinds:r");
            assertThat(lock.tryAcquireWrite(TTL)).isEmpty();
            assertThat(other.tryAcquire("kinds:r", TTL)).isEmpty();
            Cli writer = run(nodes, "--write", "kinds:r", "--", "true");
            assertThat(writer.exitCode()).as(writer.err()).isEqualTo(ExitCodes.NOT_ACQUIRED);
            assertThat(writer.err()).contains("'kinds:r' is held by another client");
            go();
            assertThat(first.waitFor()).as(first.err()).isZero();
            assertThat(second.waitFor()).as(second.err()).isZero();
            assertThat(Files.readString(dir.resolve("first.env"))).startsWith("read ");
            assertThat(Files.readAllLines(dir.resolve("second.resources"))).containsExactly("kinds:r");
            awaitNoLockKeyLeft(nodes);
            lock.acquireWrite(TTL, TTL).orElseThrow().release(); // free for a writer now
        }
    }

    @Test
    void aWriteLockRefusesReadersAndAWaitingReaderRunsOnceItIsReleased(RedisNodes nodes) throws Exception {
        Cli writer = startRun(nodes, "--write", "kinds:w", "--", "sh", "-c", holdUntilGo("writer"));
        awaitStarted("writer", writer);
        Path readerRan = dir.resolve("reader-ran");
        Cli reader = Cli.start(env(nodes), "run", "--wait", "60s", "--read", "kinds:w",
                "--", "touch", readerRan.toString());
        Cli refused = run(nodes, "--read", "kinds:w", "--", "true");
        assertThat(refused.exitCode()).as(refused.err()).isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(refused.err()).contains("'kinds:w' is write-locked, or a writer waits for it");
        try (Redlock other = client(nodes)) {
            assertThat(other.readWriteLock("kinds:w").tryAcquireRead(TTL)).isEmpty();
            assertThat(other.tryAcquire("kinds:w", TTL)).isEmpty(); // the write lock is the resource's plain lock
            for (RedisServer node : nodes) {
                Boolean set = node.redis(r -> r.setnx("kinds:w", "another-client"));
                assertThat(set).isFalse();
            }
        }
        assertThat(readerRan).doesNotExist();
        assertThat(reader.process.isAlive()).as("the reader waits").isTrue();
        go();
        assertThat(writer.waitFor()).as(writer.err()).isZero();
        assertThat(reader.waitFor()).as(reader.err()).isZero();
        assertThat(readerRan).exists();
        assertThat(Files.readString(dir.resolve("writer.env"))).startsWith("write ");
        awaitNoLockKeyLeft(nodes);
    }

    @Test
    void noMoreRunsThanPermitsHoldTheSemaphoreAndAnotherNumberOrKindIs64(RedisNodes nodes) throws Exception {
        Cli first = startRun(nodes, "--permits", "2", "kinds:p", "--", "sh", "-c", holdUntilGo("first"));
        Cli second = startRun(nodes, "--permits", "2", "--resource", "kinds:p", "--", "sh", "-c",
                holdUntilGo("second"));
        awaitStarted("first", first);
        awaitStarted("second", second); // both permits held at once
        Cli third = run(nodes, "--permits", "2", "kinds:p", "--", "true");
        assertThat(third.exitCode()).as(third.err()).isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(third.err()).contains("all 2 permits of 'kinds:p' are held by other clients");
        Cli otherNumber = run(nodes, "--permits", "3", "kinds:p", "--", "true");
        assertThat(otherNumber.exitCode()).as(otherNumber.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(otherNumber.err()).contains("held as a semaphore of 2 permits, asked for as a semaphore of 3");
        Cli plain = run(nodes, "kinds:p", "--", "true");
        assertThat(plain.exitCode()).as(plain.err()).isEqualTo(ExitCodes.USAGE);
        try (Redlock other = client(nodes)) {
            assertThat(other.semaphore("kinds:p", 2).availablePermits()).isZero();
            go();
            assertThat(first.waitFor()).as(first.err()).isZero();
            assertThat(second.waitFor()).as(second.err()).isZero();
            assertThat(Files.readString(dir.resolve("first.env"))).startsWith("permit ");
            awaitNoLockKeyLeft(nodes);
            assertThat(other.semaphore("kinds:p", 2).availablePermits()).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--resource lost:a --resource lost:b", "--read lost:a", "--write lost:a",
        "--permits 2 --resource lost:a"})
    void aLostLeaseOfAnyKindStopsTheCommandWithSigtermAndExits75(String kind, RedisNodes nodes) throws Exception {
        Path terminated = dir.resolve("terminated");
        List<String> args = new ArrayList<>(List.of("--ttl", "2s", "--grace", "5s"));
        args.addAll(List.of(kind.split(" ")));
        args.addAll(List.of("--", "sh", "-c", "trap 'echo term > " + terminated + "; exit 0' TERM; touch "
                + dir.resolve("job.started") + "; while true; do sleep 0.1; done"));
        Cli cli = startRun(nodes, args.toArray(String[]::new));
        awaitStarted("job", cli);
        for (RedisServer node : nodes) { // every lock key gone: the next extension is refused
            node.redis(r -> r.del("lost:a", "lost:a" + Keys.READERS_SUFFIX,
                    "lost:a" + Keys.PERMITS_SUFFIX));
        }
        assertThat(cli.waitFor()).as(cli.err()).isEqualTo(ExitCodes.LEASE_LOST);
        assertThat(terminated).exists();
        assertThat(cli.err()).contains("lost the lock on " + (kind.startsWith("--resource") ? "[lost:a, lost:b]"
                : "'lost:a'")).contains("SIGTERM");
        awaitNoLockKeyLeft(nodes);
    }

    @Test
    void badTargetsExit64OnOneLineAndWriteNothing(RedisNodes nodes) throws Exception {
        List<String> tooMany = new ArrayList<>(List.of("run"));
        for (int i = 0; i <= RedlockConfig.MAX_RESOURCES_AT_ONCE; i++) {
            tooMany.addAll(List.of("--resource", "r" + i));
        }
        tooMany.addAll(List.of("--", "true"));
        Map<List<String>, String> cases = Map.ofEntries(
                Map.entry(List.of("run", "--resource", "a", "--resource", "b", "--resource", "a", "--", "true"),
                        "twice"),
                Map.entry(tooMany, "at most " + RedlockConfig.MAX_RESOURCES_AT_ONCE),
                Map.entry(List.of("run", "--resource", "a", "--resource", " ", "--", "true"), "blank"),
                Map.entry(List.of("run", "--read", " ", "--", "true"), "blank"),
                Map.entry(List.of("run", "job", "--resource", "b", "--", "true"), "RESOURCE 'job' and --resource"),
                Map.entry(List.of("run", "--read", "r", "--resource", "a", "--resource", "b", "--", "true"),
                        "do not combine"),
                Map.entry(List.of("run", "--read", "r", "--write", "r", "--", "true"), "do not combine"),
                Map.entry(List.of("run", "--write", "w", "true"), "put -- before the command"),
                Map.entry(List.of("run", "--permits", "0", "p", "--", "true"), "permits must be between 1 and"),
                Map.entry(List.of("run", "--permits", "2", "--resource", "a", "--resource", "b", "--", "true"),
                        "--permits holds a permit of one resource's semaphore"),
                Map.entry(List.of("run", "--permits", "2", "--read", "r", "--", "true"), "not with --read"));
        Map<List<String>, Cli> runs = new java.util.LinkedHashMap<>();
        for (List<String> args : cases.keySet()) {
            runs.put(args, Cli.start(env(nodes), args.toArray(String[]::new)));
        }
        for (Map.Entry<List<String>, Cli> run : runs.entrySet()) {
            Cli cli = run.getValue();
            String what = String.join(" ", run.getKey());
            assertThat(cli.waitFor()).as(what + ": " + cli.err()).isEqualTo(ExitCodes.USAGE);
            assertThat(cli.err().lines().toList()).as(what).hasSize(1)
                    .allMatch(line -> line.startsWith("redlock: ") && line.contains(cases.get(run.getKey())));
        }
        for (RedisServer node : nodes) {
            Long keys = node.redis(r -> r.dbsize());
            assertThat(keys).as(node.toString()).isZero();
        }
    }
}
