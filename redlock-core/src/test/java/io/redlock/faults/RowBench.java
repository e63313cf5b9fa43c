package io.redlock.faults;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.RedlockBuilder;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.TcpProxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one matrix row runs on: its own five lock nodes (fresh for the row), a temporary directory, and everything the
 * row starts (storage node, workload, proxies, probe clients), closed in reverse order when the row ends. Every wait
 * derives from the TTL. Nothing here outlives a row, so rows run alone or in any order.
 */
final class RowBench implements AutoCloseable {

    static final Duration TTL = Duration.ofMillis(600);
    static final Duration PATIENCE = Duration.ofSeconds(30);
    static final int ATTEMPTS = 5;
    /**
     * The lease of a holder a fault is scheduled against ({@link #injectAgainstHolders}): long enough that the fault
     * and another worker's acquisition fall inside it on a loaded machine.
     */
    static final Duration VICTIM_TTL = Duration.ofSeconds(30);
    /** A clock jump that expires a victim's keys at once: twice its TTL. */
    static final Duration PAST_A_VICTIM = VICTIM_TTL.multipliedBy(2);
    static final Duration PROBE_TIMEOUT = Duration.ofMillis(100);

    private static final Logger log = LoggerFactory.getLogger(FaultMatrixIT.class);

    final RedisNodes nodes;
    final Path dir;
    private final List<AutoCloseable> cleanup = new ArrayList<>();
    private final EnumSet<FaultRow.Also> asserted = EnumSet.noneOf(FaultRow.Also.class);
    /** Whether the row's workloads mix locks of several resources with plain ones ({@link Workload#withSeveral}). */
    private boolean several;
    /** Whether the row's workloads have a writer and readers of a read-write lock ({@link Workload#withReaders}). */
    private boolean readers;
    /** Whether the row's workloads hold permits of a semaphore ({@link Workload#withPermits}). */
    private boolean permits;

    RowBench(RedisNodes nodes, Path dir) {
        this.nodes = nodes;
        this.dir = dir;
    }

    /** Closes {@code resource} when the row ends (in reverse order of registration). */
    <T extends AutoCloseable> T closeLater(T resource) {
        cleanup.add(resource);
        return resource;
    }

    /** From now on the row's workloads mix locks of several resources with plain ones. */
    void takeSeveral() {
        several = true;
    }

    /** From now on the row's workloads have a writer and readers of a read-write lock. */
    void takeReaders() {
        readers = true;
    }

    /** From now on the row's workloads hold permits of a semaphore. */
    void takePermits() {
        permits = true;
    }

    /** Records that the row asserted {@code property} (after the assertion passed). */
    void asserted(FaultRow.Also property) {
        asserted.add(property);
    }

    /** The further properties the row asserted. */
    Set<FaultRow.Also> asserted() {
        return EnumSet.copyOf(asserted);
    }

    /** Three workers on {@code lockUris} with a storage node of their own, started. */
    Workload workload(List<String> lockUris) {
        RedisServer storage = closeLater(RedisServer.launch());
        return started(closeLater(new Workload(lockUris, storage, TTL)));
    }

    /**
     * Workers named {@code processPrefix1..3} on the bench's nodes and {@code storage}, their Redlocks configured
     * further by {@code tune}, started; {@code init} zeroes the storage's counters (false: a later phase goes on).
     */
    Workload workload(RedisServer storage, String processPrefix, boolean init, UnaryOperator<RedlockBuilder> tune) {
        return started(closeLater(new Workload(nodes.uris(), storage.uri(), TTL, Workload.WORKERS, processPrefix, init,
                tune)));
    }

    private Workload started(Workload workload) {
        if (several) {
            workload.withSeveral();
        }
        if (readers) {
            workload.withReaders();
        }
        if (permits) {
            workload.withPermits();
        }
        return workload.start();
    }

    /** A storage node of this row's own. */
    RedisServer storage() {
        return closeLater(RedisServer.launch());
    }

    /** A proxy in front of every lock node. */
    List<TcpProxy> proxies() {
        List<TcpProxy> proxies = new ArrayList<>();
        for (RedisServer node : nodes) {
            proxies.add(closeLater(TcpProxy.start(node.host(), node.port())));
        }
        return proxies;
    }

    static List<String> uris(List<TcpProxy> proxies) {
        return proxies.stream().map(TcpProxy::uri).toList();
    }

    /** Runs {@code action} on the given nodes at once and waits for all. */
    void onNodes(IntFunction<Runnable> action, int... indexes) {
        CompletableFuture.allOf(Arrays.stream(indexes)
                .mapToObj(i -> CompletableFuture.runAsync(action.apply(i))).toArray(CompletableFuture[]::new)).join();
    }

    static void sleep(Duration duration) throws InterruptedException {
        Thread.sleep(duration.toMillis());
    }

    static Duration ttls(double n) {
        return Duration.ofMillis((long) (TTL.toMillis() * n));
    }

    /**
     * Injects a fault that must break mutual exclusion, against holders scheduled for it: the next writers (as many as
     * it takes to fill the lock: one, or every permit) take a lease of {@link #VICTIM_TTL} and stop in their critical
     * section; the fault is injected once they all hold, and they go on only once another worker holds beside them
     * (waited for within half their TTL, so inside their validity). Neither the fault's moment nor the overlap depends
     * on how fast the machine is.
     */
    void injectAgainstHolders(String row, Workload w, FaultStep fault) throws Exception {
        Victims victims = w.schedule.holdNext(w.locks.holdersToFill(), VICTIM_TTL);
        try {
            injectAgainst(row, w, victims.awaitHolding(PATIENCE).get(0), fault);
        } finally {
            victims.letGo();
        }
    }

    /**
     * As {@link #injectAgainstHolders}, against one holder whose value is on every node when the fault comes: a lease
     * is decided on a majority, and on a busy machine its writes to the other nodes can still be on their way, to land
     * after the fault (a clock jump would then not free those nodes). Holders that do not get there are let go, up to
     * 20 of them.
     */
    void injectAgainstAHolderOfEveryNode(String row, Workload w, FaultStep fault) throws Exception {
        for (int attempt = 0; attempt < 20; attempt++) {
            Victims victim = w.schedule.holdNext(1, VICTIM_TTL);
            try {
                Lease holder = victim.awaitHolding(PATIENCE).get(0);
                if (holdsEverywhere(holder)) {
                    injectAgainst(row, w, holder, fault);
                    return;
                }
            } finally {
                victim.letGo();
            }
        }
        throw new AssertionError(row + ": no holder of 20 had its value on every node");
    }

    private void injectAgainst(String row, Workload w, Lease holder, FaultStep fault) throws Exception {
        long injected = System.nanoTime();
        fault.inject(holder);
        try {
            w.schedule.awaitConflict(injected, VICTIM_TTL.dividedBy(2), row + ": the fault must let another worker in");
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; since the fault: " + w.record.attempts(injected)
                    + "; last node failure: " + w.record.lastNodeFailure.get() + "; worker errors: "
                    + w.record.errors + "; the nodes now:" + NodeDump.of(nodes, w.locks.lockKeys().get(0)), e);
        }
        log.info("{}: fault injected against {} holder(s), another worker held beside them", row,
                w.locks.holdersToFill());
    }

    /**
     * True if every node holds the lease's value: the writes beyond the majority land a moment later, so this polls
     * for up to a second; a node that refused (another attempt's key was there) never will.
     */
    boolean holdsEverywhere(Lease lease) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(1).toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (nodes.servers().stream().allMatch(n -> lease.value().equals(n.get(Workload.RESOURCE)))) {
                return true;
            }
            sleep(Duration.ofMillis(5));
        }
        return false;
    }

    @FunctionalInterface
    interface FaultStep {
        void inject(Lease holder) throws Exception;
    }

    /**
     * Once {@code key} is on a majority of the nodes (the attempt's grants; waiting up to {@code landsWithin}), moves
     * every node's clock back 60 s: from then on those keys outlive their TTL, so only a release removes them.
     */
    void keepKeysPastTheirTtl(NodeKeys keys, String key, Duration landsWithin) {
        cleanup.add(this::putClocksRight);
        keys.awaitOnAtLeast(key, 3, landsWithin);
        onNodes(i -> () -> nodes.node(i).shiftClock(Duration.ofSeconds(-60)), 0, 1, 2, 3, 4);
    }

    void putClocksRight() {
        onNodes(i -> () -> nodes.node(i).shiftClock(Duration.ZERO), 0, 1, 2, 3, 4);
    }

    /** Waits until no node has {@code key} (see {@link NodeKeys#awaitGone}), and records {@code NO_KEY_LEFT}. */
    void awaitGone(NodeKeys keys, String key, Duration within, String what) {
        keys.awaitGone(key, within, what);
        asserted(FaultRow.Also.NO_KEY_LEFT);
    }

    /** A probe client connected to every node; the nodes a row stalls are resumed after it. */
    Redlock connectedProbeBeforeStalls() {
        Redlock probe = closeLater(Redlock.builder().nodes(nodes.uris()).nodeTimeout(PROBE_TIMEOUT).build());
        probe.acquire("probe", TTL, PATIENCE).orElseThrow().release();
        cleanup.add(() -> nodes.servers().stream().filter(RedisServer::isPaused).forEach(RedisServer::resume));
        return probe;
    }

    @Override
    public void close() throws Exception {
        Exception first = null;
        for (int i = cleanup.size() - 1; i >= 0; i--) {
            try {
                cleanup.get(i).close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
