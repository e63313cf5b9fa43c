package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.PostgresServer;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's fenced cron job ("From the shell and cron"), pasted as it is, run by {@code redlock run} against real
 * nodes and a real PostgreSQL: a run frozen past its TTL (the command, its watcher and its job all stopped, as in a
 * paused VM) while its job computes; the next run takes over and writes; the frozen job wakes up first. Its write
 * changes nothing, it says it was fenced off, and the run exits non-zero; the newer run's row stays.
 */
@WithRedisNodes(5)
class FencedCronJobIT {

    private static final Duration LIMIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void aRunFrozenPastItsTtlIsFencedOffAndTheNewerRunsTotalsStay(RedisNodes nodes) throws Exception {
        Path job = jobFromReadme();
        MarkedProcesses firstRun = new MarkedProcesses();
        List<Long> watcher = List.of();
        try (PostgresServer postgres = PostgresServer.launch()) {
            PostgresClient db = new PostgresClient(postgres, dir);
            db.query("CREATE TABLE orders (day date NOT NULL, amount bigint NOT NULL);"
                    + " CREATE TABLE totals (name text PRIMARY KEY, amount bigint NOT NULL);"
                    + " ALTER TABLE totals ADD COLUMN fence BIGINT DEFAULT 0 NOT NULL;"
                    + " INSERT INTO orders VALUES (current_date - 1, 40), (current_date - 1, 2), (current_date, 7);"
                    + " INSERT INTO totals VALUES ('nightly', 0)");
            Map<String, String> env = new HashMap<>(db.environment());
            env.put(NodeOptions.ENV_NODES, String.join(",", nodes.uris()));

            PostgresClient.Lock busy = db.lock("orders"); // the first job's sum waits here: it is busy when frozen
            Map<String, String> firstEnv = new HashMap<>(env);
            firstEnv.put(MarkedProcesses.VARIABLE, firstRun.entry());
            Cli first = Cli.start(firstEnv, "run", "--ttl", "2s", "nightly-totals", "--", job.toString());
            PostgresClient.awaitTrue(LIMIT, () -> db.answers("SELECT count(*) FROM pg_stat_activity"
                    + " WHERE wait_event_type = 'Lock' AND query LIKE '%FROM orders%'", "1"), () -> output(first));
            watcher = MarkedProcesses.watcherOf(first.pid());
            assertThat(watcher).as("the first run's watcher").hasSize(1);
            MarkedProcesses.signal("STOP", watcher); // the whole run freezes, as in a paused VM: the watcher first
            List<Long> frozen = firstRun.pids();
            MarkedProcesses.signal("STOP", frozen);
            busy.release();

            Cli second = Cli.start(env, "run", "--ttl", "10s", "--wait", "30s", "nightly-totals", "--",
                    job.toString());
            assertThat(second.waitFor()).as(second.err()).isZero();
            String newer = db.query("SELECT amount || ' ' || fence FROM totals WHERE name = 'nightly'");
            assertThat(newer).startsWith("42 ");

            List<Long> jobProcesses = frozen.stream().filter(pid -> pid != first.pid()).toList();
            MarkedProcesses.signal("CONT", jobProcesses); // the job wakes up first: its write is on its way
            PostgresClient.awaitTrue(LIMIT, () -> jobProcesses.stream().allMatch(MarkedProcesses::ended),
                    () -> MarkedProcesses.describe(jobProcesses));
            MarkedProcesses.signal("CONT", List.of(first.pid()));
            MarkedProcesses.signal("CONT", watcher);
            int code = first.waitFor();

            assertThat(code).as(first.err()).isNotZero();
            assertThat(first.err()).contains("nightly-totals: fenced off: a newer run (token "
                    + newer.split(" ")[1] + ") has written").contains("is stale, nothing changed");
            assertThat(db.query("SELECT amount || ' ' || fence FROM totals WHERE name = 'nightly'")).isEqualTo(newer);
        } finally {
            List<Long> left = new java.util.ArrayList<>(firstRun.pids());
            left.addAll(watcher.stream().filter(MarkedProcesses::isWatcher).toList());
            MarkedProcesses.signal("CONT", left);
            MarkedProcesses.signal("KILL", left);
        }
    }

    private static String output(Cli cli) {
        try {
            return "redlock run " + (cli.process.isAlive() ? "runs" : "exited " + cli.exitCode()) + ", stdout: "
                    + cli.out() + ", stderr: " + cli.err();
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    /** The job script of the README's section, as a user would save it. */
    private Path jobFromReadme() throws Exception {
        List<String> lines = Examples.markdownBlocks(Files.readString(Path.of("..", "README.md")),
                "## From the shell and cron", "sh");
        assertThat(lines).first().isEqualTo("#!/bin/sh");
        Path job = dir.resolve("nightly-totals.sh");
        Files.writeString(job, String.join("\n", lines) + "\n");
        Files.setPosixFilePermissions(job, PosixFilePermissions.fromString("rwxr-xr-x"));
        return job;
    }
}
