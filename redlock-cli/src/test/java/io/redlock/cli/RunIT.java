package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.Lease;
import io.redlock.LossReason;
import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** redlock run, as a separate process, against real nodes. */
@WithRedisNodes(5)
class RunIT {

    @TempDir
    Path dir;

    private static Map<String, String> env(RedisNodes nodes) {
        return TestNodes.env(nodes);
    }

    private static boolean absent(RedisNodes nodes, String key) {
        return nodes.servers().stream().allMatch(n -> n.get(key) == null);
    }

    /**
     * Waits for {@code key} to be gone from every node: a release is confirmed by a majority, and a slower node's
     * DEL may land a moment after redlock exited. The bound stays well under the 30 s TTL of these locks, so what it
     * sees is the release, not the expiry.
     */
    private static void awaitReleased(RedisNodes nodes, String key) {
        await().atMost(Duration.ofSeconds(15)).until(() -> absent(nodes, key));
    }

    @Test
    void theCommandSeesTheLeaseAndItsExitCodeIsPassedOn(RedisNodes nodes) throws Exception {
        Path seen = dir.resolve("env.txt");
        Cli cli = Cli.run(env(nodes), "run", "job", "--", "sh", "-c",
                "echo \"$REDLOCK_RESOURCE $REDLOCK_TOKEN $REDLOCK_VALUE\" > " + seen + "; exit 7");
        assertThat(cli.exitCode()).isEqualTo(7);
        String[] fields = Files.readString(seen).trim().split(" ");
        assertThat(fields[0]).isEqualTo("job");
        assertThat(Long.parseLong(fields[1])).isPositive();
        assertThat(fields[2]).hasSize(27);
        awaitReleased(nodes, "job");
    }

    @Test
    void aLockHeldElsewhereGives73AfterTheWait(RedisNodes nodes) throws Exception {
        try (Redlock redlock = TestNodes.client(nodes)) {
            redlock.tryAcquire("busy", Duration.ofSeconds(30)).orElseThrow();
            long start = System.nanoTime();
            Cli cli = Cli.run(env(nodes), "run", "--wait", "500ms", "busy", "--", "true");
            assertThat(cli.exitCode()).isEqualTo(ExitCodes.NOT_ACQUIRED);
            assertThat(cli.err()).contains("'busy' is held by another client");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(400));
        }
    }

    @Test
    void withoutAQuorumItExits69(RedisNodes nodes) throws Exception {
        for (int i = 0; i < 3; i++) {
            nodes.node(i).kill();
        }
        Cli cli = Cli.run(env(nodes), "run", "nobody", "--", "true");
        assertThat(cli.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(cli.err()).contains("no quorum").contains("3 of 5 nodes failed (need 3)");
    }

    @Test
    void aLostLeaseStopsTheCommandWithSigtermAndExits75(RedisNodes nodes) throws Exception {
        Path started = dir.resolve("started");
        Path terminated = dir.resolve("terminated");
        Cli cli = Cli.start(env(nodes), "run", "--ttl", "1s", "--grace", "5s", "fragile", "--", "sh", "-c",
                "trap 'echo term > " + terminated + "; exit 0' TERM; touch " + started
                        + "; while true; do sleep 0.1; done");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(started));
        for (RedisServer node : nodes) {
            node.redis(r -> r.del("fragile")); // the lock is gone: the next extension is refused
        }
        assertThat(cli.waitFor()).isEqualTo(ExitCodes.LEASE_LOST);
        assertThat(terminated).exists();
        assertThat(cli.err()).contains("lost the lock on 'fragile'").contains("SIGTERM");
    }

    @Test
    void sigtermToRedlockReachesTheCommandAndTheLockIsReleased(RedisNodes nodes) throws Exception {
        Path started = dir.resolve("started");
        Path terminated = dir.resolve("terminated");
        Cli cli = Cli.start(env(nodes), "run", "interrupted", "--", "sh", "-c",
                "trap 'echo term > " + terminated + "; exit 3' TERM; touch " + started
                        + "; while true; do sleep 0.1; done");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(started));
        assertThat(absent(nodes, "interrupted")).isFalse();
        cli.signal("TERM");
        assertThat(cli.waitFor()).isEqualTo(3);
        assertThat(terminated).exists();
        awaitReleased(nodes, "interrupted");
    }

    @Test
    void twoConcurrentRunsNeverOverlap(RedisNodes nodes) throws Exception {
        Path log = dir.resolve("intervals.txt");
        String body = "echo start $(date +%s%N) >> " + log + "; sleep 0.2; echo end $(date +%s%N) >> " + log;
        List<Cli> runs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            runs.add(Cli.start(env(nodes), "run", "--wait", "60s", "exclusive", "--", "sh", "-c", body));
        }
        for (Cli run : runs) {
            assertThat(run.waitFor()).isZero();
        }
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).hasSize(8);
        long previousEnd = Long.MIN_VALUE;
        for (int i = 0; i < lines.size(); i += 2) {
            String[] start = lines.get(i).split(" ");
            String[] end = lines.get(i + 1).split(" ");
            assertThat(start[0]).isEqualTo("start");
            assertThat(end[0]).isEqualTo("end"); // every start is followed by its own end
            long startNanos = Long.parseLong(start[1]);
            long endNanos = Long.parseLong(end[1]);
            assertThat(startNanos).as("run %d started before the previous one ended", i / 2)
                    .isGreaterThanOrEqualTo(previousEnd);
            assertThat(endNanos).isGreaterThanOrEqualTo(startNanos);
            previousEnd = endNanos;
        }
    }

    @Test
    void nodesAnsweringWithErrorsExit69(RedisNodes nodes) throws Exception {
        // the only node is a replica: every write is refused (READONLY), so no quorum is possible
        try (RedisServer replica = RedisServer.launch("--replicaof", "127.0.0.1",
                Integer.toString(nodes.node(0).port()))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> replica.redis(r -> r.info("replication"))
                    .contains("master_link_status:up"));
            Cli cli = Cli.run(Map.of(), "run", "--nodes", replica.uri(), "replicated", "--", "true");
            assertThat(cli.exitCode()).as(cli.err()).isEqualTo(ExitCodes.UNAVAILABLE);
            assertThat(cli.err()).contains(replica.address()).doesNotContain("CompletionException");
        }
    }

    /**
     * SIGTERM on the loss, SIGKILL once the grace has passed: the child ignores SIGTERM, so it is still running when
     * the loss is seen, and redlock exits no sooner than the grace after the keys were deleted (the loss follows the
     * deletion: the message names the refused extension) and long before the child's own end (60 s).
     */
    @Test
    void aCommandThatIgnoresSigtermIsKilledAfterTheGrace(RedisNodes nodes) throws Exception {
        Duration grace = Duration.ofSeconds(2);
        Path pidFile = dir.resolve("pid");
        Cli cli = Cli.start(env(nodes), "run", "--ttl", "3s", "--grace", Durations.format(grace), "stubborn", "--",
                "sh", "-c", "trap '' TERM; echo $$ > " + pidFile + ".tmp; mv " + pidFile + ".tmp " + pidFile
                        + "; exec sleep 60");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(pidFile));
        long child = Long.parseLong(Files.readString(pidFile).trim());
        long deletedAt = System.nanoTime();
        for (RedisServer node : nodes) {
            node.redis(r -> r.del("stubborn")); // the lock is gone: the next extension is refused
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> cli.err().contains("lost the lock on 'stubborn'"));
        assertThat(ProcessHandle.of(child).map(ProcessHandle::isAlive)).as("the child ignores SIGTERM")
                .contains(true);
        assertThat(cli.waitFor()).isEqualTo(ExitCodes.LEASE_LOST);
        Duration untilExit = Duration.ofNanos(System.nanoTime() - deletedAt);
        assertThat(cli.err()).contains(LossReason.EXTENSION_REFUSED.description()).contains("sent SIGKILL");
        assertThat(untilExit).isGreaterThanOrEqualTo(grace).isLessThan(Duration.ofSeconds(40));
        await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(child).map(p -> !p.isAlive()).orElse(true));
    }

    @Test
    void sigintToRedlockReachesTheCommandAndTheLockIsReleased(RedisNodes nodes) throws Exception {
        Path started = dir.resolve("started");
        Path interrupted = dir.resolve("interrupted");
        Cli cli = Cli.start(env(nodes), "run", "ctrl-c", "--", "sh", "-c",
                "trap 'echo int > " + interrupted + "; exit 5' INT; touch " + started
                        + "; while true; do sleep 0.1; done");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(started));
        assertThat(absent(nodes, "ctrl-c")).isFalse();
        cli.signal("INT");
        assertThat(cli.waitFor()).isEqualTo(5);
        assertThat(interrupted).exists();
        awaitReleased(nodes, "ctrl-c");
    }

    @Test
    void aCommandThatCannotStartGives127(RedisNodes nodes) throws Exception {
        Cli cli = Cli.run(env(nodes), "run", "job", "--", "/no/such/program");
        assertThat(cli.exitCode()).as(cli.err()).isEqualTo(RunCommand.CANNOT_START);
        assertThat(cli.err()).contains("cannot start /no/such/program");
        awaitReleased(nodes, "job");
    }

    @Test
    void theWatcherShowsAShortNameInPsNotItsScript(RedisNodes nodes, @TempDir Path dir) throws Exception {
        Path started = dir.resolve("started");
        Cli cli = Cli.start(env(nodes), "run", "watched", "--", "sh", "-c", "touch " + started + "; sleep 2");
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(started)
                && commandLines().contains("redlock run watcher"));
        assertThat(commandLines()).as("a process showing the watcher's script").noneMatch(c -> c.contains("sub now_ms"));
        assertThat(cli.waitFor()).isZero();
    }

    @Test
    void theJobDoesNotInheritTheWatchersScript(RedisNodes nodes) throws Exception {
        Cli run = Cli.run(env(nodes), "run", "env-of-job", "--", "env");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("REDLOCK_TOKEN=").doesNotContain(PerlBinary.PROGRAM).doesNotContain("now_ms");
    }

    /** Every process's command line, its arguments joined by spaces. */
    private static List<String> commandLines() throws IOException {
        List<String> lines = new ArrayList<>();
        try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path process : processes) {
                try {
                    lines.add(new String(Files.readAllBytes(process.resolve("cmdline")), StandardCharsets.UTF_8)
                            .replace('\0', ' ').strip());
                } catch (IOException gone) {
                    // the process ended meanwhile
                }
            }
        }
        return lines;
    }

    @Test
    void aCommandThatIsThereButCannotRunGives126AsAShellDoes(RedisNodes nodes, @TempDir Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("not-executable.sh"), "#!/bin/sh\necho ran\n");
        for (String program : List.of(script.toString(), dir.toString())) {
            Cli cli = Cli.run(env(nodes), "run", "job", "--", program);
            assertThat(cli.exitCode()).as(cli.err()).isEqualTo(ExitCodes.CANNOT_RUN);
            assertThat(cli.err()).contains("cannot start " + program);
            assertThat(cli.out()).doesNotContain("ran");
        }
        awaitReleased(nodes, "job");
    }

    /**
     * The lock outlives the commands between its acquisition and its extension: each is a JVM of its own, and on a
     * loaded machine several of them took longer than the 10 s TTL this test had (extend then found it expired, 73).
     * The extension's TTL is above the first one, so the PTTL seen after it can only come from it.
     */
    @Test
    void acquireExtendAndReleaseRoundTrip(RedisNodes nodes) throws Exception {
        Cli acquire = Cli.run(env(nodes), "acquire", "manual", "--ttl", "120s");
        assertThat(acquire.exitCode()).isZero();
        String json = acquire.out().trim();
        assertThat(json).matches("\\{\"resource\":\"manual\",\"value\":\"[A-Za-z0-9_-]{27}\",\"token\":\\d+,"
                + "\"validity_ms\":\\d+}");
        String value = json.replaceAll(".*\"value\":\"([^\"]+)\".*", "$1");
        try (Redlock redlock = TestNodes.client(nodes)) {
            Lease held = redlock.tryAcquire("manual", Duration.ofSeconds(1)).orElse(null);
            assertThat(held).isNull();
        }
        assertThat(Cli.run(env(nodes), "acquire", "manual").exitCode()).isEqualTo(ExitCodes.NOT_ACQUIRED);
        Cli extend = Cli.run(env(nodes), "extend", "manual", "--value", value, "--ttl", "600s", "--json");
        assertThat(extend.exitCode()).as(extend.err()).isZero();
        assertThat(extend.out()).contains("\"extended\":true");
        // counted at a majority; a slower node's PEXPIRE may land a moment after the command exits
        await().atMost(Duration.ofSeconds(30)).until(() -> nodes.node(0).pttl("manual") > 120_000L);
        Cli release = Cli.run(env(nodes), "release", "manual", "--value", value, "--json");
        assertThat(release.exitCode()).isZero();
        assertThat(release.out()).contains("\"confirmed\":true");
        awaitReleased(nodes, "manual");
        assertThat(Cli.run(env(nodes), "release", "manual", "--value", value).exitCode())
                .isEqualTo(ExitCodes.NOT_ACQUIRED);
        assertThat(Cli.run(env(nodes), "extend", "manual", "--value", value).exitCode())
                .isEqualTo(ExitCodes.NOT_ACQUIRED);
    }
}
