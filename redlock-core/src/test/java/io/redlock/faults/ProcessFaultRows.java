package io.redlock.faults;

import static io.redlock.faults.RowBench.PATIENCE;
import static io.redlock.faults.RowBench.PROBE_TIMEOUT;
import static io.redlock.faults.RowBench.TTL;
import static io.redlock.faults.RowBench.sleep;
import static io.redlock.faults.RowBench.ttls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.TestInjection;
import io.redlock.internal.parts.FaultHooks;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.history.Event;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Rows F0–F2: no fault, then pauses of the holder (in-process and a real process) and of the acquiring client. */
final class ProcessFaultRows {

    private ProcessFaultRows() {
    }

    /** F0. */
    static Measured noFault(RowBench b) throws Exception {
        Workload w = b.workload(b.nodes.uris());
        w.awaitAcquisitions(12, PATIENCE);
        w.stop();
        return Measured.of(w);
    }

    /** F1a. */
    static Measured holderPausedPastItsValidity(RowBench b) throws Exception {
        Workload w = b.workload(b.nodes.uris());
        w.awaitAcquisitions(3, PATIENCE);
        long paused = System.nanoTime();
        w.schedule.pauseNextHolder(ttls(2));
        // the paused holder goes on once another held beside it: the workers must not stop before that
        w.schedule.awaitConflict(paused, PATIENCE, "a worker must hold beside the paused one once its lease ran out");
        w.awaitAcquisitions(6, PATIENCE);
        if (w.locks.writers() > 0) {
            // the paused holder's write is refused, and a lone writer (F24) may not have held again yet
            w.awaitWrites(1, PATIENCE);
        }
        w.stop();
        return Measured.of(w);
    }

    /** F1b: a worker in a JVM of its own holds the lock and is stopped there with SIGSTOP. */
    static Measured realHolderProcessStoppedWithSigstop(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        RedisServer storage = b.closeLater(RedisServer.launch());
        Workload w = b.closeLater(new Workload(nodes.uris(), storage.uri(), TTL, 2, "worker-", true)).start();
        Path events = b.dir.resolve("child-events.tsv");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ChildWorker.class.getName(),
                String.join(",", nodes.uris()), storage.uri(), Long.toString(TTL.toMillis()), events.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        b.closeLater(child::destroyForcibly);
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertThat(line).as("the child worker holds the lock").startsWith("HOLDING");
        signal(child, "STOP"); // the real process stops inside its critical section
        long stopped = System.nanoTime();
        sleep(ttls(2)); // its lease runs out
        // ... and it stays stopped until a worker here has held the lock: the overlap does not depend on their speed
        await().atMost(PATIENCE).until(() -> w.record.acquiredSince(stopped) > 0);
        signal(child, "CONT");
        CompletableFuture.runAsync(() -> drain(out));
        w.awaitAcquisitions(3, PATIENCE);
        OutputStream stdin = child.getOutputStream();
        stdin.write("stop\n".getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        w.stop();
        List<Event> childPlain = new ArrayList<>();
        List<Event> childFenced = new ArrayList<>();
        long id = 1_000_000;
        for (String record : Files.readAllLines(events)) {
            String[] fields = record.split("\t", -1);
            Event event = ChildWorker.parse(id++, Arrays.copyOfRange(fields, 1, fields.length));
            (fields[0].equals("plain") ? childPlain : childFenced).add(event);
        }
        return new Measured(w, childPlain, childFenced);
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // the child's further HOLDING lines
            }
        } catch (IOException ignored) {
            // the child exited
        }
    }

    private static void signal(Process process, String signal) throws Exception {
        new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor();
    }

    /** F2: the workers' own attempts paused at both hook points, then a probe whose paused attempts are watched. */
    static Measured clientPausedWhileRepliesAreInFlight(RowBench b) throws Exception {
        RedisNodes nodes = b.nodes;
        Workload w = b.workload(nodes.uris());
        w.awaitAcquisitions(3, PATIENCE);
        for (FaultHooks.Point point : List.of(FaultHooks.Point.BEFORE_DECISION, FaultHooks.Point.AFTER_VALIDITY)) {
            w.hooks().arm(Workload.RESOURCE, point, ttls(1.2));
            await().atMost(PATIENCE).until(() -> !w.hooks().isArmed(Workload.RESOURCE, point));
            w.awaitAcquisitions(3, PATIENCE);
        }
        w.stop();
        FaultHooks hooks = new FaultHooks();
        Redlock probe = b.closeLater(TestInjection.with(Redlock.builder(), hooks).nodes(nodes.uris())
                .nodeTimeout(PROBE_TIMEOUT).build());
        NodeKeys keys = b.closeLater(new NodeKeys(nodes));
        Duration probeTtl = ttls(2);
        Duration pause = ttls(2.4); // 1.2 × the probe's TTL
        // the two points inside the decision (BEFORE_COMMIT needs diverged counters; AFTER_HANDOVER comes after the
        // last check, so it hands over a stale lease on purpose: StaleHolderIT)
        for (FaultHooks.Point point : List.of(FaultHooks.Point.BEFORE_DECISION, FaultHooks.Point.AFTER_VALIDITY)) {
            String key = "paused-" + point;
            probe.tryAcquire(key, probeTtl).orElseThrow().release(); // unpaused, the same attempt succeeds
            hooks.arm(key, point, pause);
            long start = System.nanoTime();
            // on a thread of its own: the pause may run on the calling thread if the replies are back before the
            // call returns, and this thread has to watch the keys meanwhile
            CompletableFuture<Optional<Lease>> attempt = CompletableFuture.supplyAsync(
                    () -> probe.tryAcquire(key, probeTtl));
            b.keepKeysPastTheirTtl(keys, key, ttls(1));
            Optional<Lease> result = attempt.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(hooks.isArmed(key, point)).as("%s: the pause fired in this attempt", point).isFalse();
            assertThat(took).as("%s: the attempt was paused", point).isGreaterThanOrEqualTo(pause);
            assertThat(result).as("%s: an attempt paused past TTL − drift is refused", point).isEmpty();
            b.asserted(FaultRow.Also.REFUSED_PAST_VALIDITY);
            b.awaitGone(keys, key, ttls(10), point + ": the refused attempt released its keys");
            b.putClocksRight();
        }
        return Measured.of(w);
    }
}
