package io.redlock.faults;

import static io.redlock.faults.Expect.HOLDS;
import static io.redlock.faults.Expect.REPORTED;
import static io.redlock.faults.Expect.VIOLATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.TestSeams;
import io.redlock.internal.FaultHooks;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.TcpProxy;
import io.redlock.testkit.junit.WithRedisNodes;
import io.redlock.testkit.history.Event;
import io.redlock.testkit.history.Op;
import io.redlock.testkit.history.Outcome;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fault matrix (issue 6): every row runs three workers on five real nodes and one storage node, injects one
 * fault, and checks the recorded histories. The fenced path must never accept a stale token or lose an acknowledged
 * increment, in any row; mutual exclusion without fencing — overlapping critical sections, and overlapping validity
 * windows (the lock's own promise) — must hold or be broken exactly where the guarantees say; and every row must make
 * progress (a minimum of acquisitions and acknowledged fenced increments). Every wait derives from the TTL. The table
 * of results is written after the last row, and only if every row passed.
 */
@TestMethodOrder(MethodOrderer.MethodName.class)
@WithRedisNodes(value = 5, clockShift = true)
class FaultMatrixIT {

    static final Duration TTL = Duration.ofMillis(600);
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final int ATTEMPTS = 5;
    private static final Logger log = LoggerFactory.getLogger(FaultMatrixIT.class);

    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(100);
    private static final long STARTED = System.nanoTime();

    @RegisterExtension
    static final PassedTests PASSED_TESTS = new PassedTests();

    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
    }

    @AfterAll
    static void writeTable() throws Exception {
        Duration took = Duration.ofNanos(System.nanoTime() - STARTED);
        for (RowResult row : Row.PASSED) {
            log.info("{} {}: critical sections {}, validity windows {}, token violations {}, stale rejected {},"
                    + " lost fenced {}, acquisitions {} ok / {} failed / {} unknown, fenced increments {},"
                    + " plain lost {}", row.id(), row.fault(), row.criticalSections(), row.validityWindows(),
                    row.tokenViolations(), row.staleRejected(), row.lostFenced(), row.acquisitions(),
                    row.acquireFailed(), row.acquireUnknown(), row.fencedIncrements(), row.lostPlain());
        }
        int rows = (int) java.util.Arrays.stream(FaultMatrixIT.class.getDeclaredMethods())
                .filter(m -> m.isAnnotationPresent(Test.class)).count();
        GuaranteesTable.writeIfComplete(Row.PASSED, rows, PASSED_TESTS.count(), took).ifPresentOrElse(
                table -> log.info("matrix took {} s; guarantees table written to {}", took.toSeconds(),
                        table.toAbsolutePath()),
                () -> log.warn("matrix took {} s; {} of {} rows passed: the guarantees table was NOT written",
                        took.toSeconds(), PASSED_TESTS.count(), rows));
    }

    /** Counts the tests that passed, after-each callbacks included. */
    static final class PassedTests implements TestWatcher {
        private final AtomicInteger passed = new AtomicInteger();

        @Override
        public void testSuccessful(ExtensionContext context) {
            passed.incrementAndGet();
        }

        int count() {
            return passed.get();
        }
    }

    private <T extends AutoCloseable> T closeLater(T resource) {
        cleanup.add(resource);
        return resource;
    }

    private Workload workload(List<String> lockUris) {
        RedisServer storage = closeLater(RedisServer.launch());
        return closeLater(new Workload(lockUris, storage, TTL)).start();
    }

    private List<TcpProxy> proxies(RedisNodes nodes) {
        List<TcpProxy> proxies = new ArrayList<>();
        for (RedisServer node : nodes) {
            proxies.add(closeLater(TcpProxy.start(node.host(), node.port())));
        }
        return proxies;
    }

    private static List<String> uris(List<TcpProxy> proxies) {
        return proxies.stream().map(TcpProxy::uri).toList();
    }

    private static void onNodes(RedisNodes nodes, IntFunction<Runnable> action, int... indexes) {
        CompletableFuture.allOf(java.util.Arrays.stream(indexes)
                .mapToObj(i -> CompletableFuture.runAsync(action.apply(i))).toArray(CompletableFuture[]::new)).join();
    }

    private static void sleep(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }

    private static Duration ttls(double n) {
        return Duration.ofMillis((long) (TTL.toMillis() * n));
    }

    /**
     * Repeats a fault until the history shows two critical sections and two validity windows overlapping (bounded).
     * Holders work 0.6×TTL meanwhile (instead of TTL/3), still well inside their validity, so the fault has time to
     * take effect while the holder holds.
     */
    private static void injectUntilViolated(String row, Workload w, FaultStep fault) throws Exception {
        w.workFor(ttls(0.6));
        int attempt = 0;
        while (attempt < ATTEMPTS && !Row.bothViolated(w)) {
            fault.inject(w.awaitHolder(PATIENCE));
            sleep(TTL);
            attempt++;
        }
        log.info("{}: fault injected {} time(s)", row, attempt);
        w.workFor(TTL.dividedBy(3));
    }

    @FunctionalInterface
    private interface FaultStep {
        void inject(Lease holder) throws Exception;
    }

    @Test
    void f00NoFault(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(12, PATIENCE);
        w.stop();
        Row.of("F0", "no fault").criticalSections(HOLDS).validity(HOLDS).atLeast(12)
                .because("the baseline: one holder at a time, every increment kept").check(w);
    }

    @Test
    void f01aHolderPausedPastItsValidity(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(3, PATIENCE);
        w.pauseNextHolder(ttls(2));
        w.awaitAcquisitions(6, PATIENCE);
        w.stop();
        Row.of("F1a", "holder paused 2×TTL in its critical section (in-process GC pause)").criticalSections(VIOLATED)
                .validity(HOLDS).atLeast(9)
                .because("the lock kept its promise (validity windows never overlap), but nothing stops a paused holder"
                        + " from writing after its lease expired; fencing makes the storage refuse its stale write")
                .check(w);
    }

    @Test
    void f01bRealHolderProcessStoppedWithSigstop(RedisNodes nodes, @org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        RedisServer storage = closeLater(RedisServer.launch());
        Workload w = closeLater(new Workload(nodes.uris(), storage.uri(), TTL, 2, "worker-", true)).start();
        Path events = dir.resolve("child-events.tsv");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ChildWorker.class.getName(),
                String.join(",", nodes.uris()), storage.uri(), Long.toString(TTL.toMillis()), events.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        cleanup.add(child::destroyForcibly);
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        assertThat(line).as("the child worker holds the lock").startsWith("HOLDING");
        signal(child, "STOP"); // the real process stops inside its critical section
        sleep(ttls(2));
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
            Event event = ChildWorker.parse(id++, java.util.Arrays.copyOfRange(fields, 1, fields.length));
            (fields[0].equals("plain") ? childPlain : childFenced).add(event);
        }
        Row.of("F1b", "holder process stopped 2×TTL with SIGSTOP (a real JVM)").criticalSections(VIOLATED)
                .validity(HOLDS).atLeast(4)
                .because("the same with a real process: on SIGCONT it writes; only the token check at the storage"
                        + " saves the data")
                .check(w, childPlain, childFenced);
    }

    private static void drain(BufferedReader out) {
        try {
            while (out.readLine() != null) {
                // the child's further HOLDING lines
            }
        } catch (java.io.IOException ignored) {
            // the child exited
        }
    }

    private static void signal(Process process, String signal) throws Exception {
        new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor();
    }

    @Test
    void f02ClientPausedWhileRepliesAreInFlight(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(3, PATIENCE);
        for (FaultHooks.Point point : List.of(FaultHooks.Point.BEFORE_DECISION, FaultHooks.Point.AFTER_VALIDITY)) {
            w.hooks().arm(Workload.RESOURCE, point, ttls(1.2));
            await().atMost(PATIENCE).until(() -> !w.hooks().isArmed(Workload.RESOURCE, point));
            w.awaitAcquisitions(3, PATIENCE);
        }
        w.stop();
        FaultHooks hooks = new FaultHooks();
        Redlock probe = closeLater(TestSeams.with(Redlock.builder(), hooks).nodes(nodes.uris())
                .nodeTimeout(PROBE_TIMEOUT).build());
        NodeKeys keys = closeLater(new NodeKeys(nodes));
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
            keepKeysPastTheirTtl(nodes, keys, key, ttls(1));
            Optional<Lease> result = attempt.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(hooks.isArmed(key, point)).as("%s: the pause fired in this attempt", point).isFalse();
            assertThat(took).as("%s: the attempt was paused", point).isGreaterThanOrEqualTo(pause);
            assertThat(result).as("%s: an attempt paused past TTL − drift is refused", point).isEmpty();
            keys.awaitGone(key, ttls(10), point + ": the refused attempt released its keys");
            putClocksRight(nodes);
        }
        Row.of("F2", "client paused 1.2×TTL with the acquire replies in flight, then after computing validity")
                .criticalSections(HOLDS).validity(HOLDS).atLeast(9)
                .because("elapsed ≥ TTL − drift when the client resumes: it refuses the lock (asserted at both hook"
                        + " points) and releases it on every node, never a false success")
                .check(w);
    }

    /**
     * Once {@code key} is on a majority of the nodes (the attempt's grants; waiting up to {@code landsWithin}), moves
     * every node's clock back 60 s: from then on those keys outlive their TTL, so only a release removes them.
     */
    private void keepKeysPastTheirTtl(RedisNodes nodes, NodeKeys keys, String key, Duration landsWithin) {
        cleanup.add(() -> putClocksRight(nodes));
        keys.awaitOnAtLeast(key, 3, landsWithin);
        onNodes(nodes, i -> () -> nodes.node(i).shiftClock(Duration.ofSeconds(-60)), 0, 1, 2, 3, 4);
    }

    private static void putClocksRight(RedisNodes nodes) {
        onNodes(nodes, i -> () -> nodes.node(i).shiftClock(Duration.ZERO), 0, 1, 2, 3, 4);
    }

    /** A probe client connected to every node; the nodes a test stalls are resumed after it. */
    private Redlock connectedProbeBeforeStalls(RedisNodes nodes) {
        Redlock probe = closeLater(Redlock.builder().nodes(nodes.uris()).nodeTimeout(PROBE_TIMEOUT).build());
        probe.tryAcquire("probe", TTL).orElseThrow().release();
        cleanup.add(() -> nodes.servers().stream().filter(RedisServer::isPaused).forEach(RedisServer::resume));
        return probe;
    }

    @Test
    void f03NodesStalled(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        Redlock probe = connectedProbeBeforeStalls(nodes);
        w.awaitAcquisitions(2, PATIENCE);
        nodes.node(0).pause();
        w.awaitAcquisitions(3, PATIENCE); // 4 of 5
        nodes.node(1).pause();
        w.awaitAcquisitions(3, PATIENCE); // 3 of 5
        nodes.node(2).pause();
        sleep(ttls(0.5));
        int before = w.acquisitions.get();
        Duration bound = PROBE_TIMEOUT.plus(TTL.dividedBy(2));
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            boolean acquired = tryAcquireOrFail(probe, "probe");
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            log.info("F3: attempt with 3 of 5 nodes stalled failed after {} ms", took.toMillis());
            assertThat(acquired).as("no false success with 3 of 5 nodes stalled").isFalse();
            assertThat(took).as("fails fast: about the per-node timeout (%s ms)", PROBE_TIMEOUT.toMillis())
                    .isLessThan(bound);
        }
        sleep(ttls(3));
        int during = w.acquisitions.get() - before;
        nodes.node(0).resume();
        nodes.node(1).resume();
        nodes.node(2).resume();
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        assertThat(during).as("acquisitions with 3 of 5 nodes stalled").isZero();
        Row.of("F3", "1, then 2 nodes stalled (SIGSTOP), then 3").criticalSections(HOLDS).validity(HOLDS).atLeast(11)
                .because("4 or 3 of 5 answering is enough (progress asserted); with 3 stalled no acquisition succeeds"
                        + " and an attempt fails within the per-node timeout plus a margin")
                .check(w);
    }

    /** One attempt: true if it got a lease (released at once), false if refused or the quorum was unreachable. */
    private static boolean tryAcquireOrFail(Redlock redlock, String key) {
        try {
            Optional<Lease> lease = redlock.tryAcquire(key, TTL);
            lease.ifPresent(Lease::release);
            return lease.isPresent();
        } catch (io.redlock.QuorumUnreachableException e) {
            return false;
        }
    }

    @Test
    void f04CrashAndImmediateRestart(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        injectUntilViolated("F4", w, holder -> onNodes(nodes, i -> nodes.node(i)::restart, 0, 1, 2));
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        Row.of("F4", "kill -9 of 3 nodes and immediate restart (empty)").criticalSections(VIOLATED)
                .validity(VIOLATED).atLeast(4)
                .because("restarted nodes forget the lock (SPEC R9): a second client takes it while the first still"
                        + " holds; fenced writes are still refused when stale")
                .check(w);
    }

    @Test
    void f05CrashAndDelayedRestart(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        w.awaitHolder(PATIENCE);
        List<CompletableFuture<Void>> back = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            back.add(nodes.node(i).restartAfter(ttls(1.5)));
        }
        back.forEach(CompletableFuture::join);
        w.awaitAcquisitions(4, PATIENCE);
        w.stop();
        Row.of("F5", "kill -9 of 3 nodes, restart delayed 1.5×TTL").criticalSections(HOLDS).validity(HOLDS)
                .atLeast(6)
                .because("down longer than the TTL, a node comes back only after every lease it knew has expired"
                        + " (SPEC R9)")
                .check(w);
    }

    @Test
    void f06ClockJumpOnOneOfExactlyThreeNodes(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        injectUntilViolated("F6", w, holder -> {
            nodes.node(3).redis(r -> r.del(Workload.RESOURCE)); // the holder got exactly nodes 0, 1 and 2
            nodes.node(4).redis(r -> r.del(Workload.RESOURCE));
            nodes.node(2).shiftClock(ttls(2));
        });
        nodes.node(2).shiftClock(Duration.ZERO);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        Row.of("F6", "clock +2×TTL on one node while the holder has exactly 3 of 5").criticalSections(VIOLATED)
                .validity(VIOLATED).atLeast(4)
                .because("Kleppmann's first example: the jumped node expires the lock early, a second client gets 3"
                        + " of 5; tokens keep the storage consistent")
                .check(w);
    }

    @Test
    void f07aClockJumpOnOneNodeOfFive(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        int jumps = 0;
        for (int attempt = 0; attempt < 20 && jumps < 3; attempt++) {
            Lease holder = w.awaitHolder(PATIENCE);
            if (!holdsEverywhere(nodes, holder)) {
                sleep(ttls(0.5)); // decided on a majority; its other SETs did not all land: not this row's case
                continue;
            }
            nodes.node(0).shiftClock(ttls(2));
            sleep(ttls(2));
            nodes.node(0).shiftClock(Duration.ZERO);
            jumps++;
        }
        assertThat(jumps).as("clock jumps while a holder had 5 of 5").isEqualTo(3);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        Row.of("F7a", "clock +2×TTL on 1 node while the holder has 5 of 5").criticalSections(HOLDS).validity(HOLDS)
                .atLeast(4).because("one node losing the lock early leaves the holder 4 of 5: still a majority")
                .check(w);
    }

    /** True if every node holds the lease's value (polled briefly: the SETs beyond the majority land a bit later). */
    private static boolean holdsEverywhere(RedisNodes nodes, Lease lease) throws InterruptedException {
        for (int i = 0; i < 10; i++) {
            if (nodes.servers().stream().allMatch(n -> lease.value().equals(n.get(Workload.RESOURCE)))) {
                return true;
            }
            sleep(Duration.ofMillis(5));
        }
        return false;
    }

    @Test
    void f07bClockJumpOnThreeNodes(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        injectUntilViolated("F7b", w,
                holder -> onNodes(nodes, i -> () -> nodes.node(i).shiftClock(ttls(2)), 0, 1, 2));
        onNodes(nodes, i -> () -> nodes.node(i).shiftClock(Duration.ZERO), 0, 1, 2);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        Row.of("F7b", "clock +2×TTL on 3 nodes while the holder has 5 of 5").criticalSections(VIOLATED)
                .validity(VIOLATED).atLeast(4)
                .because("a majority of clocks jumping ends the lock everywhere that counts: two holders; tokens still"
                        + " protect the data")
                .check(w);
    }

    @Test
    void f08ClockBackOnTwoNodes(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        nodes.node(0).shiftClock(Duration.ofSeconds(-60));
        nodes.node(1).shiftClock(Duration.ofSeconds(-60));
        w.awaitAcquisitions(8, PATIENCE);
        w.stop();
        Row.of("F8", "clock −60 s on 2 nodes").criticalSections(HOLDS).validity(HOLDS).atLeast(10)
                .because("a clock going back only keeps old keys longer on those nodes: slower, never unsafe")
                .check(w);
    }

    @Test
    void f09ClockStrobe(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        int before = w.acquisitions.get();
        long end = System.nanoTime() + ttls(5).toNanos();
        boolean forward = true;
        while (System.nanoTime() < end) {
            Duration offset = forward ? TTL : TTL.negated();
            onNodes(nodes, i -> () -> nodes.node(i).shiftClock(offset), 0, 1);
            forward = !forward;
            sleep(Duration.ofMillis(100));
        }
        int during = w.acquisitions.get() - before;
        onNodes(nodes, i -> () -> nodes.node(i).shiftClock(Duration.ZERO), 0, 1);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        assertThat(during).as("progress under the strobe").isPositive();
        Row.of("F9", "clock strobe ±TTL every 100 ms on 2 nodes").criticalSections(REPORTED).validity(REPORTED)
                .atLeast(5).because("reported only: the lock keeps working and the fenced path stays clean").check(w);
    }

    @Test
    void f10Partitions(RedisNodes nodes) throws Exception {
        List<TcpProxy> proxies = proxies(nodes);
        Workload w = workload(uris(proxies));
        w.awaitAcquisitions(2, PATIENCE);
        proxies.get(0).blackhole(true);
        proxies.get(1).blackhole(true);
        w.awaitAcquisitions(3, PATIENCE);
        proxies.get(2).blackhole(true);
        sleep(ttls(0.5));
        int before = w.acquisitions.get();
        sleep(ttls(3));
        int during = w.acquisitions.get() - before;
        proxies.forEach(TcpProxy::heal);
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        assertThat(during).as("acquisitions with 3 of 5 nodes partitioned away").isZero();
        Row.of("F10", "partition of 2 nodes, then 3, then heal").criticalSections(HOLDS).validity(HOLDS).atLeast(8)
                .because("a minority partition is tolerated; without a majority nobody gets the lock; it heals"
                        + " cleanly")
                .check(w);
    }

    @Test
    void f11RepliesDropped(RedisNodes nodes) throws Exception {
        List<TcpProxy> proxies = proxies(nodes);
        Workload w = workload(uris(proxies));
        w.awaitAcquisitions(2, PATIENCE);
        Redlock probe = closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(PROBE_TIMEOUT).build());
        for (int i = 0; i < 3; i++) {
            proxies.get(i).dropReplies(true);
        }
        assertThat(probe.tryAcquire("orphan-check", Duration.ofSeconds(30))).isEmpty();
        sleep(ttls(2));
        proxies.forEach(TcpProxy::heal);
        // the SETs were applied but their replies lost: the library must have released them on every node
        closeLater(new NodeKeys(nodes)).awaitGone("orphan-check", ttls(10),
                "F11: the attempt without replies released its keys");
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        Row.of("F11", "replies dropped from 3 nodes (requests still applied), then heal").criticalSections(HOLDS)
                .validity(HOLDS).atLeast(5)
                .because("no false success without replies; the library releases on all 5 nodes (no orphan key with a"
                        + " 30 s TTL after heal) and drops the connections whose replies went missing")
                .check(w);
    }

    @Test
    void f12SlowNodes(RedisNodes nodes) throws Exception {
        List<TcpProxy> proxies = proxies(nodes);
        Workload w = workload(uris(proxies));
        w.awaitAcquisitions(2, PATIENCE);
        proxies.get(0).delay(ttls(0.4));
        proxies.get(1).delay(ttls(0.4));
        w.awaitAcquisitions(6, PATIENCE);
        w.stop();
        proxies.forEach(TcpProxy::heal);

        // validity is reported from the real elapsed time: a majority behind 0.3×TTL each way
        Redlock patient = closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(ttls(0.8)).build());
        patient.tryAcquire("warm-up", TTL).orElseThrow().release();
        proxies.get(2).delay(ttls(0.3));
        proxies.get(0).delay(ttls(0.3));
        proxies.get(1).delay(ttls(0.3));
        long start = System.nanoTime();
        Lease slow = patient.acquire("slow", TTL, ttls(10)).orElseThrow();
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        Duration drift = Duration.ofMillis(TTL.toMillis() / 100 + 2);
        assertThat(slow.remainingValidity()).isLessThanOrEqualTo(TTL.minus(ttls(0.6)).minus(drift));
        assertThat(elapsed).isGreaterThanOrEqualTo(ttls(0.6));
        slow.release();
        proxies.forEach(TcpProxy::heal);

        slowAcquisitionIsRefusedAndReleased(nodes, proxies);
        Row.of("F12", "latency 0.4×TTL each way on 2 nodes").criticalSections(HOLDS).validity(HOLDS).atLeast(8)
                .because("slow replies past the per-node timeout do not count; a lease taken through slow nodes"
                        + " reports the validity left after the real elapsed time; an acquisition whose round trip"
                        + " reaches TTL − drift is refused and its keys released on every node")
                .check(w);
    }

    /**
     * An acquisition whose round trip reaches its TTL − drift: lock TTL 2×TTL, 0.7×TTL latency each way on every
     * node, a per-node timeout of 1.8×TTL above the round trip, and a drift allowance of 0.45 so the refusal point
     * (1.1×TTL elapsed) sits well between the round trip and the timeout. (The round trip cannot reach the TTL itself:
     * the per-node timeout must stay below every TTL.) It must return empty although every node granted, with no node
     * failure, and delete its keys everywhere. The nodes' clocks go back 60 s once the keys are set, so a key still
     * there later was left behind, not merely not yet expired.
     */
    private void slowAcquisitionIsRefusedAndReleased(RedisNodes nodes, List<TcpProxy> proxies) throws Exception {
        Duration slowTtl = ttls(2);
        AtomicInteger nodeFailures = new AtomicInteger();
        Redlock refusing = closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(ttls(1.8)).driftFactor(0.45)
                .observer(new io.redlock.RedlockObserver() {
                    @Override
                    public void nodeFailed(io.redlock.NodeFailure failure) {
                        nodeFailures.incrementAndGet();
                    }
                }).build());
        refusing.tryAcquire("warm-up", slowTtl).orElseThrow().release();
        NodeKeys keys = closeLater(new NodeKeys(nodes));
        proxies.forEach(p -> p.delay(ttls(0.7)));
        nodeFailures.set(0);
        long start = System.nanoTime();
        CompletableFuture<Optional<Lease>> attempt = refusing.tryAcquireAsync("slow-refused", slowTtl)
                .toCompletableFuture();
        keepKeysPastTheirTtl(nodes, keys, "slow-refused", ttls(1.5)); // the SETs land after 0.7×TTL
        Optional<Lease> result = attempt.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        log.info("F12: the slow acquisition returned {} after {} ms", result, took.toMillis());
        assertThat(result).as("an acquisition slower than TTL − drift is refused").isEmpty();
        assertThat(nodeFailures.get()).as("every node answered in time: refused for its validity, not a timeout")
                .isZero();
        assertThat(took).isGreaterThanOrEqualTo(ttls(1.4));
        keys.awaitGone("slow-refused", ttls(10), "F12: the refused slow acquisition released its keys");
        proxies.forEach(TcpProxy::heal);
        putClocksRight(nodes);
    }

    @Test
    void f13ExtendUnderPartitionAndAfterExpiry(RedisNodes nodes) throws Exception {
        List<TcpProxy> proxies = proxies(nodes);
        Workload w = workload(uris(proxies));
        w.extendEachHold();
        w.awaitAcquisitions(2, PATIENCE);
        for (int attempt = 0; attempt < ATTEMPTS && !anExtensionFailed(w); attempt++) {
            w.awaitHolder(PATIENCE); // the holder extends after its work: partition 3 nodes before it does
            for (int i = 0; i < 3; i++) {
                proxies.get(i).blackhole(true);
            }
            sleep(ttls(1));
            proxies.forEach(TcpProxy::heal);
            w.awaitAcquisitions(1, PATIENCE);
        }
        assertThat(anExtensionFailed(w)).as("a holder's extension under the partition failed").isTrue();
        assertThat(w.plainHistory.events()).as("extensions with a majority succeeded")
                .anyMatch(e -> e.op() == Op.EXTEND && e.outcome() == Outcome.OK);

        Redlock holder = closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(PROBE_TIMEOUT).build());
        Lease lease = holder.acquire("extended", ttls(2), PATIENCE).orElseThrow();
        for (int i = 0; i < 3; i++) {
            proxies.get(i).blackhole(true);
        }
        assertThat(lease.extend(ttls(5))).as("extend without a majority").isFalse();
        proxies.forEach(TcpProxy::heal);
        await().atMost(PATIENCE).until(() -> !lease.isValid()
                && nodes.servers().stream().allMatch(n -> n.get("extended") == null));
        assertThat(holder.extend("extended", lease.value(), ttls(5))).as("extend after expiry").isEmpty();
        assertThat(nodes.servers().stream().allMatch(n -> n.get("extended") == null)).as("never re-created").isTrue();
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        Row.of("F13", "extend under a partition of 3 nodes, and after expiry").criticalSections(HOLDS)
                .validity(HOLDS).atLeast(5)
                .because("every holder extends: an extension counts only with a majority inside the new validity"
                        + " (failed ones recorded, the holder gives up), and never re-creates an expired key")
                .check(w);
    }

    private static boolean anExtensionFailed(Workload w) {
        return w.plainHistory.events().stream()
                .anyMatch(e -> e.op() == Op.EXTEND && e.outcome() != Outcome.OK && !e.pending());
    }

    @Test
    void f14EvictionOnThreeNodes(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        injectUntilViolated("F14", w, holder -> onNodes(nodes, i -> () -> evictLocks(nodes.node(i)), 0, 1, 2));
        onNodes(nodes, i -> () -> nodes.node(i).redis(r -> {
            r.configSet("maxmemory", "0");
            return r.configSet("maxmemory-policy", "noeviction");
        }), 0, 1, 2);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        Row.of("F14", "allkeys-lru eviction on 3 nodes").criticalSections(VIOLATED).validity(VIOLATED).atLeast(4)
                .because("eviction deletes lock keys (and fencing counters) under memory pressure: two holders, and"
                        + " tokens that can go back — refused at the storage; use noeviction")
                .check(w);
    }

    /** Fills the node past a tight maxmemory under allkeys-lru until the lock key is evicted. */
    private static void evictLocks(RedisServer node) {
        String info = node.redis(r -> r.info("memory"));
        long used = Long.parseLong(info.lines().filter(l -> l.startsWith("used_memory:")).findFirst().orElseThrow()
                .substring("used_memory:".length()).trim());
        node.evictAnyKeyAbove(used + 512 * 1024);
        String junk = "x".repeat(1024);
        for (int batch = 0; batch < 20 && node.get(Workload.RESOURCE) != null; batch++) {
            Map<String, String> keys = new HashMap<>();
            for (int i = 0; i < 200; i++) {
                keys.put("junk:" + batch + ":" + i, junk);
            }
            node.redis(r -> r.mset(keys));
        }
    }

    @Test
    void f15WritesPausedOnTwoNodes(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        int before = w.acquisitions.get();
        onNodes(nodes, i -> () -> nodes.node(i).pauseWrites(ttls(2)), 0, 1);
        long start = System.nanoTime();
        CompletableFuture<Void> write = CompletableFuture.runAsync(() -> nodes.node(0).redis(r -> r.set("probe", "1")));
        write.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        Duration blocked = Duration.ofNanos(System.nanoTime() - start);
        int duringPause = w.acquisitions.get() - before;
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        log.info("F15: a write to a paused node waited {} ms; {} acquisitions meanwhile", blocked.toMillis(),
                duringPause);
        assertThat(blocked).as("writes really were paused").isGreaterThanOrEqualTo(ttls(1.5));
        assertThat(duringPause).as("acquisitions while 2 nodes refused writes").isPositive();
        Row.of("F15", "CLIENT PAUSE WRITE for 2×TTL on 2 nodes").criticalSections(HOLDS).validity(HOLDS).atLeast(6)
                .because("two nodes that stop writing are two nodes down: the other three carry the lock (progress"
                        + " during the pause asserted)")
                .check(w);
    }

    @Test
    void f16MajorityStalledPastEveryRetryWindow(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        Redlock probe = connectedProbeBeforeStalls(nodes);
        w.awaitAcquisitions(2, PATIENCE);
        List<RedisServer> stalled = nodes.servers().subList(0, 3);
        stalled.forEach(RedisServer::pause);
        assertThat(probe.tryAcquire("stall-orphan", Duration.ofSeconds(30))).as("no majority while stalled").isEmpty();
        sleep(Duration.ofSeconds(8));
        stalled.forEach(RedisServer::resume);
        closeLater(new NodeKeys(nodes)).awaitGone("stall-orphan", Duration.ofSeconds(2),
                "F16: the failed attempt's keys are gone within 2 s of the resume");
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        Row.of("F16", "3 nodes stalled 8 s (SIGSTOP), longer than any fixed retry window, then resumed")
                .criticalSections(HOLDS).validity(HOLDS).atLeast(5)
                .because("the stalled nodes apply the queued writes when they resume; the library repeats its deletes"
                        + " until the keys would have expired anyway, so no key of a failed attempt outlives the"
                        + " resume by 2 s (asserted with a 30 s key)")
                .check(w);
    }
}
