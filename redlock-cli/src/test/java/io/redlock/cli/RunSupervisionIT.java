package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * redlock run supervises the whole job, not just its first process: the job's own children are stopped before the
 * lock is released, and also when redlock itself dies. Jobs here fork a grandchild, as shell scripts do.
 */
@WithRedisNodes(5)
class RunSupervisionIT {

    @TempDir
    Path dir;

    private long grandchild = -1;

    private static Map<String, String> env(RedisNodes nodes) {
        return TestNodes.env(nodes);
    }

    @AfterEach
    void killTheGrandchildIfTheTestFailed() {
        if (grandchild > 0) {
            ProcessHandle.of(grandchild).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    /**
     * A shell job that starts a grandchild ({@code sleep 300}, ignoring SIGTERM when {@code stubborn}), writes the
     * grandchild's pid and process group to a file, then waits for it (or, with {@code leave}, exits at once,
     * leaving it behind).
     */
    private String[] job(boolean stubborn, boolean leave) {
        Path pid = dir.resolve("grandchild");
        String child = stubborn ? "( trap '' TERM; exec sleep 300 ) &" : "sleep 300 &";
        String script = child + " echo $! $(cut -d ' ' -f 5 /proc/$!/stat) > " + pid + ".tmp; mv " + pid + ".tmp " + pid + (leave ? "" : "; wait");
        return new String[] {"sh", "-c", script};
    }

    /** Waits for the job's grandchild to start and returns its process group (the job's group). */
    private long awaitGrandchild() throws Exception {
        Path pid = dir.resolve("grandchild");
        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(pid));
        String[] fields = Files.readString(pid).trim().split(" ");
        grandchild = Long.parseLong(fields[0]);
        return Long.parseLong(fields[1]);
    }

    /** Like {@link #awaitGrandchild()}, also checking that /proc shows the running grandchild in that group. */
    private long awaitRunningGrandchild() throws Exception {
        long group = awaitGrandchild();
        assertThat(ProcessGroup.groupOf(grandchild)).as("the grandchild's group, read by redlock").isEqualTo(group);
        assertThat(ProcessGroup.members(group)).as("the group is seen through /proc").contains(grandchild);
        return group;
    }

    private static String[] args(String... before) {
        return before;
    }

    private static String[] concat(String[] head, String[] tail) {
        String[] all = new String[head.length + tail.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }

    @Test
    void sigtermStopsTheWholeJobBeforeTheNextHolderStarts(RedisNodes nodes) throws Exception {
        Cli first = Cli.start(env(nodes), concat(args("run", "--grace", "1s", "shared", "--"), job(true, false)));
        long group = awaitRunningGrandchild();
        Path seen = dir.resolve("seen");
        Cli second = Cli.start(env(nodes), "run", "--wait", "60s", "shared", "--", "sh", "-c",
                "s=$(cut -d ' ' -f 3 /proc/" + grandchild + "/stat 2>/dev/null); " // a zombie (Z) runs no code
                        + "if [ -n \"$s\" ] && [ \"$s\" != Z ]; then echo overlap; else echo alone; fi > " + seen);
        first.signal("TERM");
        first.waitFor();
        assertThat(ProcessGroup.members(group)).as("processes of the job's group after redlock exited").isEmpty();
        assertThat(second.waitFor()).as(second.err()).isZero();
        assertThat(Files.readString(seen).trim()).as("the second job saw the first one's grandchild")
                .isEqualTo("alone");
        assertThat(first.err()).contains("SIGKILL");
    }

    @Test
    void aLostLeaseStopsTheWholeJob(RedisNodes nodes) throws Exception {
        Cli run = Cli.start(env(nodes), concat(args("run", "--ttl", "2s", "--max-hold", "4s", "--grace", "1s",
                "bounded", "--"), job(true, false)));
        long group = awaitRunningGrandchild();
        assertThat(run.waitFor()).as(run.err()).isEqualTo(ExitCodes.LEASE_LOST);
        assertThat(ProcessGroup.members(group)).as("processes of the job's group after redlock exited").isEmpty();
    }

    @Test
    void whatTheJobLeftRunningIsStoppedBeforeTheRelease(RedisNodes nodes) throws Exception {
        Cli run = Cli.start(env(nodes), concat(args("run", "--grace", "1s", "leftover", "--"), job(false, true)));
        long group = awaitGrandchild();
        assertThat(run.waitFor()).as(run.err()).isZero();
        assertThat(ProcessGroup.members(group)).as("processes of the job's group after redlock exited").isEmpty();
        assertThat(ProcessGroup.groupOf(grandchild)).as("the grandchild is gone (or a zombie)").isEqualTo(-1);
        assertThat(run.err()).contains("left 1 process running in its group");
    }

    /**
     * The watcher stops the job on redlock's death itself, long before the lock (TTL 60 s) would have expired: it
     * says so, and the group is gone well within the TTL (the watcher reacts to end of file, then waits the grace).
     */
    @Test
    void whenRedlockIsKilledTheJobStopsBeforeTheLockExpires(RedisNodes nodes) throws Exception {
        Duration ttl = Duration.ofSeconds(60);
        Cli run = Cli.start(env(nodes), concat(args("run", "--ttl", Durations.format(ttl), "--grace", "500ms",
                "orphaned", "--"), job(true, false)));
        long group = awaitRunningGrandchild();
        run.signal("KILL");
        run.waitFor();
        await().atMost(ttl.dividedBy(2)).pollInterval(Duration.ofMillis(20))
                .until(() -> ProcessGroup.members(group).isEmpty());
        assertThat(run.err()).contains("redlock exited while the command ran; sent SIGTERM");
    }

    /**
     * Frozen redlock extends nothing and tells the watcher nothing: the watcher stops the group once the last
     * validity it was told (at most the TTL) ran out, SIGKILL after the grace. The bound is that plus generous room
     * for a loaded machine.
     */
    @Test
    void whenRedlockStallsPastTheLockExpiryTheJobIsStopped(RedisNodes nodes) throws Exception {
        Duration ttl = Duration.ofSeconds(2);
        Duration grace = Duration.ofMillis(500);
        Cli run = Cli.start(env(nodes), concat(args("run", "--ttl", Durations.format(ttl), "--grace",
                Durations.format(grace), "stalled", "--"), job(true, false)));
        long group = awaitRunningGrandchild();
        run.signal("STOP"); // redlock freezes: no extension, no word to the watcher, no end of file either
        try {
            await().atMost(ttl.plus(grace).plusSeconds(15)).pollInterval(Duration.ofMillis(20))
                    .until(() -> ProcessGroup.members(group).isEmpty());
            assertThat(run.err()).contains("the lock expired while redlock did not answer");
        } finally {
            run.signal("KILL");
            run.waitFor();
        }
    }

    /** Extensions keep the lease past its TTL for as long as the job runs (here 2.5 TTLs). */
    @Test
    void aJobLongerThanItsTtlRunsToItsEnd(RedisNodes nodes) throws Exception {
        Cli run = Cli.start(env(nodes), "run", "--ttl", "2s", "long", "--", "sh", "-c", "sleep 5; exit 4");
        assertThat(run.waitFor()).as(run.err()).isEqualTo(4);
        assertThat(run.err()).isEmpty();
    }
}
