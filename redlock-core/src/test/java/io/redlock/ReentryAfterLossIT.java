package io.redlock;

import static io.redlock.ItSupport.PATIENCE;
import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.fencing.Fence;
import io.redlock.fencing.FencedRedis;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * After a loss, no call of the losing thread returns a hold on that lock until the thread has unwound its critical
 * section: every nested {@code lock()}, {@code lockInterruptibly()} and {@code tryLock(...)} throws
 * {@link LeaseLostException}, {@code currentLease()} stays the lost lease (so a fenced write with it is refused), and
 * only after the last {@code unlock()} — which reports the loss — does locking acquire afresh. The same for the read
 * lock's per-thread holds and for a {@code withLock} nested in another on the same resource.
 */
@WithRedisNodes(5)
class ReentryAfterLossIT {

    /** A fixed lease that runs out while its holder stalls: the other client waits for it (up to PATIENCE). */
    private static final Duration FIXED = Duration.ofMillis(800);
    /** Kept-alive leases, extended long before their validity ends: lost only when the test deletes their keys. */
    private static final LockOptions KEPT = LockOptions.builder().ttl(Duration.ofSeconds(5)).maxWait(PATIENCE)
            .extendWhenRemaining(Duration.ofSeconds(4)).build();

    @Test
    void aNestedLockAfterTheFixedLeaseRanOutThrowsAndItsStaleWriteIsRefused(RedisNodes nodes) throws Exception {
        try (RedisServer storage = RedisServer.launch(); Redlock a = redlockOn(nodes).build();
                Redlock b = redlockOn(nodes).build()) {
            RedisClient client = RedisClient.create(storage.uri());
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                FencedRedis fenced = FencedRedis.on(connection);
                connection.sync().set("balance", "100");
                RedlockLock lock = a.lock("acct", KEPT);
                lock.lock(FIXED);
                Lease first = lock.currentLease().orElseThrow();
                long read = Long.parseLong(fenced.get("balance", Fence.of(first)).value());

                // the holder stalls: its lease runs out, another client takes the lock, writes and releases
                Lease other = b.acquire("acct", Duration.ofSeconds(30), PATIENCE).orElseThrow();
                assertThat(fenced.set("balance", "150", Fence.of(other)).accepted()).isTrue();
                other.release();

                assertThatThrownBy(lock::lock).isInstanceOfSatisfying(LeaseLostException.class,
                        e -> assertThat(e.reason()).isEqualTo(LossReason.EXPIRED));
                assertThat(lock.currentLease()).contains(first);
                Fence stale = Fence.of(lock.currentLease().orElseThrow());
                assertThat(fenced.set("balance", Long.toString(read - 30), stale).accepted()).isFalse();
                assertThat(connection.sync().get("balance")).isEqualTo("150");

                assertThatThrownBy(lock::unlock).isInstanceOfSatisfying(LeaseLostException.class,
                        e -> assertThat(e.reason()).isEqualTo(LossReason.EXPIRED));
                assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
                lock.lock(FIXED); // unwound: a fresh acquisition
                try {
                    assertThat(lock.currentLease().orElseThrow().fencingToken()).isGreaterThan(other.fencingToken());
                } finally {
                    lock.unlock();
                }
            } finally {
                client.shutdown();
            }
        }
    }

    @Test
    void everyNestedCallAfterAKeptAliveLeaseWasLostThrowsUntilTheLastUnlock(RedisNodes nodes) throws Exception {
        String resource = "kept-then-lost";
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            RedlockLock lock = a.lock(resource, KEPT);
            lock.lock();
            lock.lock(); // two holds
            Lease first = lock.currentLease().orElseThrow();
            LossReason reason = loseByDeletingTheKeys(nodes, resource, first);
            Lease other = b.acquire(resource, Duration.ofSeconds(30), PATIENCE).orElseThrow();

            List<Executable> nested = List.of(lock::lock, lock::lockInterruptibly, lock::tryLock,
                    () -> lock.tryLock(1, TimeUnit.SECONDS), () -> lock.lock(FIXED),
                    () -> lock.tryLock(Duration.ofSeconds(1), FIXED));
            for (Executable call : nested) {
                assertThatThrownBy(call::execute).isInstanceOfSatisfying(LeaseLostException.class,
                        e -> assertThat(e.reason()).isEqualTo(reason));
                assertThat(lock.currentLease()).contains(first);
                assertThat(lock.isHeldByCurrentThread()).isFalse();
            }
            lock.unlock(); // the nested hold: quiet, as nested unlocks are
            assertThatThrownBy(lock::unlock).isInstanceOfSatisfying(LeaseLostException.class,
                    e -> assertThat(e.reason()).isEqualTo(reason));
            assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
            assertThat(lock.currentLease()).isEmpty();
            assertThat(lock.tryLock()).as("unwound: a fresh attempt, and the other client holds").isFalse();
            other.release();
        }
    }

    @Test
    void aNestedReadLockAfterTheReadersLeaseRanOutThrows(RedisNodes nodes) throws Exception {
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            RedlockLock read = a.readWriteLock("shelf").readLock();
            read.lock(FIXED);
            Lease first = read.currentLease().orElseThrow();
            Lease writer = b.readWriteLock("shelf").acquireWrite(Duration.ofSeconds(30), PATIENCE).orElseThrow();

            assertThatThrownBy(read::lock).isInstanceOf(LeaseLostException.class);
            assertThat(read.currentLease()).contains(first);
            assertThatThrownBy(read::unlock).isInstanceOf(LeaseLostException.class);
            writer.release();
        }
    }

    @Test
    void aWithLockNestedInOneWhoseLeaseWasLostThrowsWithoutRunning(RedisNodes nodes) {
        String resource = "with-lock-then-lost";
        try (Redlock a = redlockOn(nodes).build()) {
            assertThatThrownBy(() -> a.withLock(resource, KEPT, lease -> {
                LossReason reason = loseByDeletingTheKeys(nodes, resource, lease);
                for (LockTarget nested : List.of(LockTarget.of(resource), LockTarget.all(List.of("else", resource)),
                        LockTarget.write(resource))) {
                    assertThatThrownBy(() -> a.withLock(nested, KEPT, inner -> {
                        throw new AssertionError("ran nested in a lost lease: " + nested);
                    })).isInstanceOfSatisfying(LeaseLostException.class,
                            e -> assertThat(e.reason()).isEqualTo(reason));
                }
                String ran = a.withLock("another-resource", KEPT, inner -> "ran");
                assertThat(ran).as("a nested call on another resource").isEqualTo("ran");
                return null;
            })).isInstanceOfSatisfying(LeaseLostException.class,
                    e -> assertThat(e.getCause()).as("what the work threw").isNull());
            assertThat(ItSupport.absentEverywhere(nodes, resource)).isTrue();
        }
    }

    /**
     * Deletes the lease's keys everywhere, so that its next extension is refused; waits for the loss, clears the
     * interrupt the loss sent this thread, and returns its reason.
     */
    private static LossReason loseByDeletingTheKeys(RedisNodes nodes, String resource, Lease lease) {
        nodes.servers().forEach(node -> node.redis(r -> r.del(resource)));
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        boolean interrupted = false;
        while (!interrupted || lease.lossReason().isEmpty()) { // polled on this thread, which the loss interrupts
            assertThat(System.nanoTime() - deadline).as("the loss and its interrupt, within " + PATIENCE).isNegative();
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        return lease.lossReason().orElseThrow();
    }
}
