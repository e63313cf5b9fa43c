package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Read-write locks on five real nodes: many readers or one writer, a plain lock (ours, or a raw {@code SET NX}) shut
 * out by readers, writers first, tokens from the one counter, a reader that dies frees the resource, the Lock
 * adapters (several reading threads, loss, no upgrade or downgrade), and the plain algorithm without fencing.
 */
@WithRedisNodes(5)
class ReadWriteLockIT {

    private static final Duration TTL = Duration.ofSeconds(10);

    @Test
    void manyReadersHoldAtOnceAndShutOutWritersAndPlainLocks(RedisNodes nodes) {
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            RedlockReadWriteLock lockA = a.readWriteLock("rw:doc");
            RedlockReadWriteLock lockB = b.readWriteLock("rw:doc");
            Lease first = lockA.tryAcquireRead(TTL).orElseThrow();
            Lease second = lockB.tryAcquireRead(TTL).orElseThrow();
            // a majority granted each reader: the last node's entries may still be on their way
            await().atMost(ItSupport.units(50)).until(() -> nodes.servers().stream()
                    .allMatch(node -> members(node, "rw:doc:readers") == 2L));
            for (RedisServer node : nodes) {
                assertThat(node.get("rw:doc")).as("the readers' mark").isEqualTo("redlock:readers");
                assertThat(members(node, "rw:doc:readers")).isEqualTo(2L);
                Boolean set = node.redis(r -> r.setnx("rw:doc", "another-client"));
                assertThat(set).as("a raw SET NX of another Redlock client").isFalse();
            }
            assertThat(lockA.tryAcquireWrite(TTL)).isEmpty();
            assertThat(b.tryAcquire("rw:doc", TTL)).as("a plain lock of the resource").isEmpty();
            first.release();
            assertThat(lockB.tryAcquireWrite(TTL)).as("one reader is still in").isEmpty();
            assertThat(nodes.pttlOnAMajority("rw:doc")).as("the mark lives as long as the last reader")
                    .isGreaterThan(5_000L);
            second.release();
            assertThat(ItSupport.absentEverywhere(nodes, "rw:doc")).as("the last reader deletes the mark").isTrue();
            Lease writer = lockA.tryAcquireWrite(TTL).orElseThrow();
            assertThat(lockB.tryAcquireRead(TTL)).as("no reader beside a writer").isEmpty();
            writer.release();
        }
    }

    @Test
    void aWritersTokenIsAboveEveryEarlierReadersAndAReadersAboveEveryEarlierWriters(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockReadWriteLock lock = redlock.readWriteLock("rw:tokens");
            Lease r1 = lock.tryAcquireRead(TTL).orElseThrow();
            Lease r2 = lock.tryAcquireRead(TTL).orElseThrow();
            r1.release();
            r2.release();
            Lease w = lock.tryAcquireWrite(TTL).orElseThrow();
            assertThat(w.fencingToken()).isGreaterThan(Math.max(r1.fencingToken(), r2.fencingToken()));
            w.release();
            Lease r3 = lock.tryAcquireRead(TTL).orElseThrow();
            assertThat(r3.fencingToken()).isGreaterThan(w.fencingToken());
            r3.release();
        }
    }

    @Test
    void aWaitingWriterIsServedBeforeReadersThatComeAfterIt(RedisNodes nodes) throws Exception {
        try (Redlock readers = redlockOn(nodes).build(); Redlock writers = redlockOn(nodes).build()) {
            RedlockReadWriteLock forReaders = readers.readWriteLock("rw:fair");
            Lease inside = forReaders.tryAcquireRead(TTL).orElseThrow();
            CompletableFuture<Optional<Lease>> writer = CompletableFuture.supplyAsync(
                    () -> writers.readWriteLock("rw:fair").acquireWrite(TTL, Duration.ofSeconds(20)));
            await().atMost(Duration.ofSeconds(5)).until(() -> members(nodes.node(0), "rw:fair:waiters") > 0);
            assertThat(forReaders.tryAcquireRead(TTL)).as("a reader after a waiting writer").isEmpty();
            inside.release();
            Lease written = writer.get(10, TimeUnit.SECONDS).orElseThrow();
            assertThat(forReaders.tryAcquireRead(TTL)).isEmpty();
            written.release();
            assertThat(forReaders.tryAcquireRead(TTL)).isPresent();
        }
    }

    @Test
    void aReaderThatDiesFreesTheResourceWhenItsLeaseRunsOut(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockReadWriteLock lock = redlock.readWriteLock("rw:dies");
            Lease shortOne = lock.tryAcquireRead(Duration.ofSeconds(1)).orElseThrow();
            Lease longOne = lock.tryAcquireRead(Duration.ofSeconds(2)).orElseThrow();
            assertThat(longOne.extend(Duration.ofSeconds(3))).isTrue();
            assertThat(longOne.validUntil()).as("the extended reader outlasts the other").isGreaterThan(
                    shortOne.validUntil());
            // neither is released: both holders "die"; the resource is free once the longest lease ran out, not before
            await().atMost(Duration.ofSeconds(10)).until(() -> lock.tryAcquireWrite(TTL).map(w -> {
                assertThat(longOne.isValid()).as("a reader still valid beside the writer").isFalse();
                w.release();
                return true;
            }).orElse(false));
            assertThat(shortOne.extend(TTL)).as("a lapsed reader is not brought back").isFalse();
        }
    }

    @Test
    void threadsOfOneJvmReadTogetherAndCannotUpgradeOrDowngrade(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockReadWriteLock lock = redlock.readWriteLock("rw:threads",
                    LockOptions.builder().ttl(Duration.ofSeconds(5)).build());
            CountDownLatch both = new CountDownLatch(2);
            CountDownLatch done = new CountDownLatch(1);
            CompletableFuture<Long> other = CompletableFuture.supplyAsync(() -> {
                lock.readLock().lock();
                try {
                    both.countDown();
                    await().atMost(Duration.ofSeconds(10)).until(() -> done.getCount() == 0);
                    return lock.readLock().currentLease().orElseThrow().fencingToken();
                } finally {
                    lock.readLock().unlock();
                }
            });
            lock.readLock().lock();
            both.countDown();
            assertThat(both.await(10, TimeUnit.SECONDS)).as("two threads hold the read lock at once").isTrue();
            assertThat(lock.readLock().isHeldByCurrentThread()).isTrue();
            // each with its own lease (a majority granted each: node 0's entry may still be on its way)
            await().atMost(ItSupport.units(50)).until(() -> members(nodes.node(0), "rw:threads:readers") == 2L);
            assertThatThrownBy(() -> lock.writeLock().tryLock(1, TimeUnit.SECONDS))
                    .isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("cannot be upgraded");
            assertThat(members(nodes.node(0), "rw:threads:waiters")).as("nothing sent").isZero();
            lock.readLock().lock(); // re-entrant
            lock.readLock().unlock();
            lock.readLock().unlock();
            assertThat(lock.readLock().isHeldByCurrentThread()).isFalse();
            done.countDown();
            other.get(10, TimeUnit.SECONDS);

            lock.writeLock().lock();
            try {
                assertThatThrownBy(() -> lock.readLock().tryLock())
                        .isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("holds the write lock");
            } finally {
                lock.writeLock().unlock();
            }
            assertThat(lock.readLock().tryLock()).as("free again").isTrue();
            lock.readLock().unlock();
        }
    }

    @Test
    void aReadLeaseLostWhileHeldInterruptsItsThreadAndUnlockSaysSo(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            // extended a second in and every second after, long before each validity ends: the loss is the refusal
            // provoked here, not an extension a stall made late
            RedlockReadWriteLock lock = redlock.readWriteLock("rw:lost", LockOptions.builder()
                    .ttl(Duration.ofSeconds(5)).extendWhenRemaining(Duration.ofSeconds(4)).build());
            AtomicBoolean interrupted = new AtomicBoolean();
            CompletableFuture<Throwable> holder = CompletableFuture.supplyAsync(() -> {
                lock.readLock().lock();
                try {
                    nodes.forEach(node -> node.redis(r -> r.del("rw:lost:readers")));
                    Thread.sleep(10_000);
                } catch (InterruptedException e) {
                    interrupted.set(true);
                }
                try {
                    lock.readLock().unlock();
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            assertThat(holder.get(15, TimeUnit.SECONDS)).isInstanceOfSatisfying(LeaseLostException.class,
                    e -> assertThat(e.reason()).isEqualTo(LossReason.EXTENSION_REFUSED));
            assertThat(interrupted).isTrue();
        }
    }

    @Test
    void aReaderWhoseMarkWasEvictedNeverWritesOverTheLockThatTookTheResource(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build(); Redlock other = redlockOn(nodes).build()) {
            Lease reader = redlock.readWriteLock("rw:evicted").tryAcquireRead(TTL).orElseThrow();
            nodes.forEach(node -> node.redis(r -> r.del("rw:evicted"))); // the mark alone is lost (eviction)
            Lease writer = other.tryAcquire("rw:evicted", TTL).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "rw:evicted"); // granted by a majority: the other writes may follow
            assertThat(reader.extend(TTL)).as("the reader's extension is refused").isFalse();
            for (RedisServer node : nodes) {
                assertThat(node.get("rw:evicted")).as("the writer's value stays").isEqualTo(writer.value());
            }
            reader.release();
            for (RedisServer node : nodes) {
                assertThat(node.get("rw:evicted")).as("a reader's release leaves it too").isEqualTo(writer.value());
            }
            writer.release();
        }
    }

    @Test
    void withoutFencingReadersAndWritersStillExcludeEachOther(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).fencing(false).build()) {
            RedlockReadWriteLock lock = redlock.readWriteLock("rw:plain");
            Lease reader = lock.tryAcquireRead(TTL).orElseThrow();
            assertThatThrownBy(reader::fencingToken).isInstanceOf(RedlockException.class);
            assertThat(nodes.node(0).get("rw:plain:fence")).isNull();
            assertThat(lock.tryAcquireWrite(TTL)).isEmpty();
            reader.release();
            lock.tryAcquireWrite(TTL).orElseThrow().release();
        }
    }

    /** The size of the sorted set {@code key} on {@code node} (0 if absent). */
    private static long members(RedisServer node, String key) {
        Long size = node.redis(r -> r.zcard(key));
        return size;
    }
}
