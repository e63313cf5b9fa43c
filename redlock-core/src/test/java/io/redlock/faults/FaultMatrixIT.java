package io.redlock.faults;

import static io.redlock.faults.Expect.HOLDS;
import static io.redlock.faults.Expect.REPORTED;
import static io.redlock.faults.Expect.VIOLATED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.internal.FaultHooks;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.TcpProxy;
import io.redlock.testkit.WithRedisNodes;
import io.redlock.testkit.history.Event;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fault matrix (issue 6): every row runs three workers on five real nodes and one storage node, injects one
 * fault, and checks the recorded histories. The fenced path must never accept a stale token or lose an acknowledged
 * increment, in any row; mutual exclusion without fencing must hold or be broken exactly where the guarantees say.
 * Every wait derives from the TTL. The table of results is written after the last row.
 */
@TestMethodOrder(MethodOrderer.MethodName.class)
@WithRedisNodes(value = 5, clockShift = true)
class FaultMatrixIT {

    static final Duration TTL = Duration.ofMillis(600);
    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final int ATTEMPTS = 5;
    private static final Logger log = LoggerFactory.getLogger(FaultMatrixIT.class);

    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        FaultHooks.reset();
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            cleanup.get(i).close();
        }
    }

    @AfterAll
    static void writeTable() throws Exception {
        Path table = GuaranteesTable.write(Row.RESULTS);
        for (RowResult row : Row.RESULTS) {
            log.info("{} {}: mutual exclusion {}, token violations {}, stale rejected {}, lost fenced {},"
                    + " acquisitions {}, plain lost {}", row.id(), row.fault(), row.mutualExclusion(),
                    row.tokenViolations(), row.staleRejected(), row.lostFenced(), row.acquisitions(), row.lostPlain());
        }
        log.info("guarantees table written to {}", table.toAbsolutePath());
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

    /** Repeats a fault until the history shows it broke mutual exclusion (bounded). */
    private static void injectUntilViolated(Workload w, FaultStep fault) throws Exception {
        for (int attempt = 0; attempt < ATTEMPTS && !Row.violated(w, List.of()); attempt++) {
            fault.inject(w.awaitHolder(PATIENCE));
            sleep(TTL);
        }
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
        Row.check("F0", "no fault", HOLDS, "the baseline: one holder at a time, every increment kept", w);
    }

    @Test
    void f01aHolderPausedPastItsValidity(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(3, PATIENCE);
        w.pauseNextHolder(ttls(2));
        w.awaitAcquisitions(6, PATIENCE);
        w.stop();
        Row.check("F1a", "holder paused 2×TTL in its critical section (in-process GC pause)", VIOLATED,
                "nothing stops a paused holder from writing after its lease expired; fencing makes the storage refuse"
                        + " its stale write",
                w);
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
        Row.check("F1b", "holder process stopped 2×TTL with SIGSTOP (a real JVM)", VIOLATED,
                "the same with a real process: on SIGCONT it writes; only the token check at the storage saves the"
                        + " data",
                w, childPlain, childFenced);
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
            FaultHooks.arm(Workload.RESOURCE, point, ttls(1.2));
            await().atMost(PATIENCE).until(() -> !FaultHooks.isArmed(Workload.RESOURCE, point));
            w.awaitAcquisitions(3, PATIENCE);
        }
        w.stop();
        Row.check("F2", "client paused 1.2×TTL with the acquire replies in flight, then after computing validity",
                HOLDS, "elapsed ≥ TTL − drift when the client resumes: it refuses the lock and releases it, never a"
                        + " false success",
                w);
    }

    @Test
    void f03NodesStalled(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        nodes.node(0).pause();
        nodes.node(1).pause();
        cleanup.add(() -> nodes.servers().stream().filter(RedisServer::isPaused).forEach(RedisServer::resume));
        w.awaitAcquisitions(4, PATIENCE);
        nodes.node(2).pause();
        sleep(ttls(0.5));
        int before = w.acquisitions.get();
        sleep(ttls(3));
        int during = w.acquisitions.get() - before;
        nodes.node(0).resume();
        nodes.node(1).resume();
        nodes.node(2).resume();
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        assertThat(during).as("acquisitions with 3 of 5 nodes stalled").isZero();
        Row.check("F3", "1–2 nodes stalled (SIGSTOP), then 3", HOLDS,
                "3 of 5 answering is enough; with 3 stalled no acquisition succeeds (fast failure, no false success)",
                w);
    }

    @Test
    void f04CrashAndImmediateRestart(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        injectUntilViolated(w, holder -> onNodes(nodes, i -> nodes.node(i)::restart, 0, 1, 2));
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        Row.check("F4", "kill -9 of 3 nodes and immediate restart (empty)", VIOLATED,
                "restarted nodes forget the lock (SPEC R9): a second client takes it while the first still holds;"
                        + " fenced writes are still refused when stale",
                w);
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
        Row.check("F5", "kill -9 of 3 nodes, restart delayed 1.5×TTL", HOLDS,
                "down longer than the TTL, a node comes back only after every lease it knew has expired (SPEC R9)",
                w);
    }

    @Test
    void f06ClockJumpOnOneOfExactlyThreeNodes(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        injectUntilViolated(w, holder -> {
            nodes.node(3).redis(r -> r.del(Workload.RESOURCE)); // the holder got exactly nodes 0, 1 and 2
            nodes.node(4).redis(r -> r.del(Workload.RESOURCE));
            nodes.node(2).shiftClock(ttls(2));
        });
        nodes.node(2).shiftClock(Duration.ZERO);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        Row.check("F6", "clock +2×TTL on one node while the holder has exactly 3 of 5", VIOLATED,
                "Kleppmann's first example: the jumped node expires the lock early, a second client gets 3 of 5;"
                        + " tokens keep the storage consistent",
                w);
    }

    @Test
    void f07aClockJumpOnOneNodeOfFive(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
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
        Row.check("F7a", "clock +2×TTL on 1 node while the holder has 5 of 5", HOLDS,
                "one node losing the lock early leaves the holder 4 of 5: still a majority", w);
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
        injectUntilViolated(w, holder -> onNodes(nodes, i -> () -> nodes.node(i).shiftClock(ttls(2)), 0, 1, 2));
        onNodes(nodes, i -> () -> nodes.node(i).shiftClock(Duration.ZERO), 0, 1, 2);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        Row.check("F7b", "clock +2×TTL on 3 nodes while the holder has 5 of 5", VIOLATED,
                "a majority of clocks jumping ends the lock everywhere that counts: two holders; tokens still"
                        + " protect the data",
                w);
    }

    @Test
    void f08ClockBackOnTwoNodes(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        nodes.node(0).shiftClock(Duration.ofSeconds(-60));
        nodes.node(1).shiftClock(Duration.ofSeconds(-60));
        w.awaitAcquisitions(8, PATIENCE);
        w.stop();
        Row.check("F8", "clock −60 s on 2 nodes", HOLDS,
                "a clock going back only keeps old keys longer on those nodes: slower, never unsafe", w);
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
        onNodes(nodes, i -> () -> nodes.node(i).shiftClock(Duration.ZERO), 0, 1);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        assertThat(w.acquisitions.get()).as("progress under the strobe").isGreaterThan(before);
        Row.check("F9", "clock strobe ±TTL every 100 ms on 2 nodes", REPORTED,
                "reported only: the lock keeps working and the fenced path stays clean", w);
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
        Row.check("F10", "partition of 2 nodes, then 3, then heal", HOLDS,
                "a minority partition is tolerated; without a majority nobody gets the lock; it heals cleanly", w);
    }

    @Test
    void f11RepliesDropped(RedisNodes nodes) throws Exception {
        List<TcpProxy> proxies = proxies(nodes);
        Workload w = workload(uris(proxies));
        w.awaitAcquisitions(2, PATIENCE);
        Redlock probe = closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(Duration.ofMillis(100))
                .build());
        for (int i = 0; i < 3; i++) {
            proxies.get(i).dropReplies(true);
        }
        assertThat(probe.tryAcquire("orphan-check", Duration.ofSeconds(30))).isEmpty();
        sleep(ttls(2));
        proxies.forEach(TcpProxy::heal);
        // the SETs were applied but their replies lost: the library must have released them on every node
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                .until(() -> nodes.servers().stream().allMatch(n -> n.get("orphan-check") == null));
        w.awaitAcquisitions(3, PATIENCE);
        w.stop();
        Row.check("F11", "replies dropped from 3 nodes (requests still applied), then heal", HOLDS,
                "no false success without replies; the library releases on all 5 nodes (no orphan key with a 30 s"
                        + " TTL after heal) and drops the connections whose replies went missing",
                w);
    }

    @Test
    void f12SlowNodes(RedisNodes nodes) throws Exception {
        List<TcpProxy> proxies = proxies(nodes);
        Workload w = workload(uris(proxies));
        w.awaitAcquisitions(2, PATIENCE);
        proxies.get(0).delay(ttls(0.4));
        proxies.get(1).delay(ttls(0.4));
        w.awaitAcquisitions(6, PATIENCE);
        // validity is reported from the real elapsed time: a majority behind 0.3×TTL each way
        Redlock patient = closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(ttls(0.8)).build());
        proxies.get(2).delay(ttls(0.3));
        proxies.get(0).delay(ttls(0.3));
        proxies.get(1).delay(ttls(0.3));
        w.stop();
        long start = System.nanoTime();
        Lease slow = patient.acquire("slow", TTL, ttls(10)).orElseThrow();
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        Duration drift = Duration.ofMillis(TTL.toMillis() / 100 + 2);
        assertThat(slow.remainingValidity()).isLessThanOrEqualTo(TTL.minus(ttls(0.6)).minus(drift));
        assertThat(elapsed).isGreaterThanOrEqualTo(ttls(0.6));
        slow.release();
        proxies.forEach(TcpProxy::heal);
        Row.check("F12", "latency 0.4×TTL each way on 2 nodes", HOLDS,
                "slow replies past the per-node timeout do not count; a lease taken through slow nodes reports the"
                        + " validity left after the real elapsed time",
                w);
    }

    @Test
    void f13ExtendUnderPartitionAndAfterExpiry(RedisNodes nodes) throws Exception {
        List<TcpProxy> proxies = proxies(nodes);
        Workload w = workload(uris(proxies));
        w.awaitAcquisitions(2, PATIENCE);
        Redlock holder = closeLater(Redlock.builder().nodes(uris(proxies)).nodeTimeout(Duration.ofMillis(100))
                .build());
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
        Row.check("F13", "extend under a partition of 3 nodes, and after expiry", HOLDS,
                "an extension counts only with a majority inside the new validity, and never re-creates an expired"
                        + " key",
                w);
    }

    @Test
    void f14EvictionOnThreeNodes(RedisNodes nodes) throws Exception {
        Workload w = workload(nodes.uris());
        w.awaitAcquisitions(2, PATIENCE);
        injectUntilViolated(w, holder -> onNodes(nodes, i -> () -> evictLocks(nodes.node(i)), 0, 1, 2));
        onNodes(nodes, i -> () -> nodes.node(i).redis(r -> {
            r.configSet("maxmemory", "0");
            return r.configSet("maxmemory-policy", "noeviction");
        }), 0, 1, 2);
        w.awaitAcquisitions(2, PATIENCE);
        w.stop();
        Row.check("F14", "allkeys-lru eviction on 3 nodes", VIOLATED,
                "eviction deletes lock keys (and fencing counters) under memory pressure: two holders, and tokens"
                        + " that can go back — refused at the storage; use noeviction",
                w);
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
        nodes.node(0).pauseWrites(ttls(2));
        nodes.node(1).pauseWrites(ttls(2));
        w.awaitAcquisitions(6, PATIENCE);
        w.stop();
        Row.check("F15", "CLIENT PAUSE WRITE for 2×TTL on 2 nodes", HOLDS,
                "two nodes that stop writing are two nodes down: the other three carry the lock", w);
    }
}
