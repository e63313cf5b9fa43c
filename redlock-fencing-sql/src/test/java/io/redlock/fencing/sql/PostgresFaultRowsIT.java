package io.redlock.fencing.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.PostgresServer;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.TcpProxy;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fault rows with the fenced storage on PostgreSQL ({@link StorageWorkload}): the paused holder, stalled nodes, the
 * delayed restart and a write held up in the network of docs/GUARANTEES.md, each on 5 fresh redis-server nodes, the storage a real PostgreSQL at
 * READ COMMITTED. Every row asserts that the storage never accepted a token below one it had accepted, that no
 * acknowledged fenced increment is lost, and the row's own claim. With {@code -Dredlock.guarantees.sql=FILE} and
 * every row passed, the table is written as the section {@value StorageRowsSection#HEADING} of FILE.
 */
class PostgresFaultRowsIT {

    private static final Map<StorageFaultRow, StorageRowResult> PASSED = new EnumMap<>(StorageFaultRow.class);
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static PostgresServer postgres;
    private static long started;

    @BeforeAll
    static void start() {
        started = System.nanoTime();
        postgres = PostgresServer.launch();
    }

    @AfterAll
    static void writeSection() throws Exception {
        postgres.close();
        StorageRowsSection.writeIfComplete(PASSED, Duration.ofNanos(System.nanoTime() - started));
    }

    @Test
    void aPausedHoldersLateWriteIsRefusedByPostgres() throws Exception {
        try (RedisNodes nodes = RedisNodes.start(5)) {
            StorageWorkload workload = workload(nodes);
            AtomicBoolean paused = new AtomicBoolean();
            workload.run(() -> workload.acquired.get() < 12, (worker, lease, w) -> {
                if (worker == 0 && paused.compareAndSet(false, true)) {
                    int others = w.finishedSections.get();
                    long until = System.nanoTime() + StorageWorkload.TTL.multipliedBy(2).toNanos();
                    awaitTrue("the others' next section", () -> System.nanoTime() - until > 0
                            && w.finishedSections.get() > others);
                }
            });
            StorageRowResult result = check(StorageFaultRow.P1, workload);
            assertThat(result.refused()).as("the paused holder's write").isPositive();
            assertThat(result.plainLost()).as("the plain counter's lost update").isPositive();
        }
    }

    @Test
    void stalledNodesGrantNothingWithoutAMajorityAndTheStorageStaysConsistent() throws Exception {
        try (RedisNodes nodes = RedisNodes.start(5)) {
            StorageWorkload workload = workload(nodes);
            AtomicLong withThreeStalled = new AtomicLong(-1);
            CompletableFuture<Void> faults = CompletableFuture.runAsync(() -> {
                Duration step = StorageWorkload.TTL.multipliedBy(3);
                pause(step);
                nodes.node(0).pause();
                pause(step);
                nodes.node(1).pause();
                long twoStalled = System.nanoTime();
                awaitTrue("an acquisition begun with 2 of 5 stalled", () -> workload.acquiredStartingAfter(twoStalled) > 0);
                nodes.node(2).pause();
                long threeStalled = System.nanoTime();
                int failedBefore = workload.failed.get();
                pause(step);
                awaitTrue("an attempt refused with 3 of 5 stalled", () -> workload.failed.get() > failedBefore);
                withThreeStalled.set(workload.acquiredStartingAfter(threeStalled));
                List.of(0, 1, 2).forEach(i -> nodes.node(i).resume());
                pause(step);
            });
            workload.run(() -> !faults.isDone(), (worker, lease, w) -> { });
            faults.join();
            check(StorageFaultRow.P2, workload);
            assertThat(withThreeStalled.get()).as("acquisitions begun with 3 of 5 stalled").isZero();
        }
    }

    @Test
    void aDelayedRestartKeepsTheTokensRisingAtTheStorage() throws Exception {
        try (RedisNodes nodes = RedisNodes.start(5)) {
            StorageWorkload workload = workload(nodes);
            AtomicInteger afterRestart = new AtomicInteger(-1);
            CompletableFuture<Void> faults = CompletableFuture.runAsync(() -> {
                pause(StorageWorkload.TTL.multipliedBy(3));
                List<CompletableFuture<Void>> restarts = List.of(0, 1, 2).stream()
                        .map(i -> nodes.node(i).restartAfter(Duration.ofSeconds(3))).toList();
                restarts.forEach(CompletableFuture::join);
                int before = workload.acknowledged.get();
                pause(StorageWorkload.TTL.multipliedBy(4));
                afterRestart.set(workload.acknowledged.get() - before);
            });
            workload.run(() -> !faults.isDone(), (worker, lease, w) -> { });
            faults.join();
            check(StorageFaultRow.P3, workload);
            assertThat(afterRestart.get()).as("fenced increments after the restart").isPositive();
        }
    }

    @Test
    void aWriteHeldUpInTheNetworkPastTheLeaseIsRefusedByPostgres() throws Exception {
        try (RedisNodes nodes = RedisNodes.start(5);
                TcpProxy proxy = TcpProxy.start(postgres.host(), postgres.port())) {
            StorageWorkload workload = workload(nodes).firstWorkerThrough(proxy);
            AtomicBoolean delayed = new AtomicBoolean();
            CompletableFuture<Void> heal = new CompletableFuture<>();
            workload.run(() -> workload.acquired.get() < 12, (worker, lease, w) -> {
                if (worker == 0 && delayed.compareAndSet(false, true)) {
                    proxy.delay(StorageWorkload.TTL.multipliedBy(3));
                    heal.completeAsync(() -> {
                        try {
                            awaitTrue("the delayed write's refusal", () -> w.refused.get() > 0);
                        } finally {
                            proxy.heal();
                        }
                        return null;
                    });
                }
            });
            heal.join();
            StorageRowResult result = check(StorageFaultRow.P4, workload);
            assertThat(result.refused()).as("the delayed write").isPositive();
        }
    }

    private static StorageWorkload workload(RedisNodes nodes) throws Exception {
        return new StorageWorkload(postgres, nodes, "ledger_" + TABLES.incrementAndGet());
    }

    /** The claims every row makes, then the row's result kept for the table. */
    private static StorageRowResult check(StorageFaultRow row, StorageWorkload workload) throws Exception {
        StorageRowResult result = StorageRowResult.of(row, workload);
        assertThat(result.tokenViolations()).as(row + ": tokens that went down at the storage").isZero();
        assertThat(result.lostFenced()).as(row + ": acknowledged fenced increments lost").isZero();
        assertThat(result.acknowledged()).as(row + ": progress").isGreaterThanOrEqualTo(5);
        synchronized (PASSED) {
            PASSED.put(row, result);
        }
        return result;
    }

    /** Polls {@code condition} until it holds; fails naming {@code what} after 30 s. */
    private static void awaitTrue(String what, java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError(what + ": not within 30 s");
            }
            pause(Duration.ofMillis(10));
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis()); // the fault schedule's own time line, not a wait for a condition
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
