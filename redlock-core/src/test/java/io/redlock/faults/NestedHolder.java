package io.redlock.faults;

import static io.redlock.faults.RowBench.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.RedlockLock;
import io.redlock.fencing.Fence;
import io.redlock.fencing.FencedRedis;
import io.redlock.fencing.FencedResult;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.history.History;
import io.redlock.testkit.history.Op;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Re-entrant code beside the workers: one thread of its own holds the workers' resource through a {@link RedlockLock},
 * reads the fenced counter and stays in its critical section until the row has made it lose its lease and a worker
 * has written since. Then it does what re-entrant code does, a nested {@code lock()} and a write computed from its
 * read with {@code currentLease()}'s token, and unwinds. Its fenced calls go into the workers' fenced history, so the
 * row's checks (token order, no lost increment) cover its write too.
 */
final class NestedHolder implements AutoCloseable {

    static final String PROCESS = "nested-1";

    private final Redlock redlock;
    private final RedlockLock lock;
    private final RedisClient storageClient;
    private final StatefulRedisConnection<String, String> storage;
    private final FencedRedis fenced;
    private final History history;
    /** The holder's thread: a loss interrupts the thread that locked, so it is not the row's. */
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> new Thread(r, PROCESS));
    private long read;

    NestedHolder(List<String> lockUris, RedisServer storageNode, WorkRecord record) {
        this.redlock = Redlock.builder().nodes(lockUris).nodeTimeout(Duration.ofMillis(100)).build();
        this.lock = redlock.lock(Workload.RESOURCE, LockOptions.builder().ttl(RowBench.TTL).maxWait(PATIENCE).build());
        this.storageClient = RedisClient.create(storageNode.uri());
        this.storage = storageClient.connect();
        this.fenced = FencedRedis.on(storage);
        this.history = record.fencedHistory;
    }

    /**
     * Takes the lock, with a fixed lease of {@code fixedTtl} or, if null, kept alive by the watchdog, and reads the
     * fenced counter; returns the lease.
     */
    Lease enter(Duration fixedTtl) throws Exception {
        return on(() -> {
            History.Call acquire = history.invoke(PROCESS, Op.ACQUIRE, null, -1, null);
            if (fixedTtl == null) {
                lock.lock();
            } else {
                lock.lock(fixedTtl);
            }
            Lease lease = lock.currentLease().orElseThrow();
            acquire.okAcquired(lease.value(), lease.fencingToken(), lease.validUntil());
            History.Call fencedRead = history.invoke(PROCESS, Op.READ, lease.value(), lease.fencingToken(), null);
            FencedResult<String> result = fenced.get(Workload.FENCED_COUNTER, Fence.of(lease));
            assertThat(result.accepted()).as("the holder's read, inside its validity").isTrue();
            read = Long.parseLong(result.value());
            fencedRead.okRead(read);
            return lease;
        });
    }

    /**
     * After {@code lost} was lost and a worker wrote since: a nested {@code lock()} throws {@link LeaseLostException}
     * with the lease's loss reason and {@code currentLease()} stays {@code lost}; the write computed from the stale
     * read with its token is refused by the storage; the last {@code unlock()} reports the loss; then the thread
     * locks afresh, with a token above the lost one.
     */
    void assertBrokenUntilUnwound(Lease lost) throws Exception {
        on(() -> {
            assertThat(lost.lossReason()).as("the holder's lease was lost").isPresent();
            History.Call nested = history.invoke(PROCESS, Op.ACQUIRE, null, -1, null);
            assertThatThrownBy(lock::lock).as("a nested lock() after the loss")
                    .isInstanceOfSatisfying(LeaseLostException.class,
                            e -> assertThat(e.reason()).isEqualTo(lost.lossReason().get()));
            nested.fail("nested lock() after a loss: LeaseLostException");
            Lease current = lock.currentLease().orElseThrow();
            assertThat(current).as("currentLease() after the loss").isSameAs(lost);

            History.Call write = history.invoke(PROCESS, Op.WRITE, current.value(), current.fencingToken(), read + 1);
            FencedResult<Void> written = fenced.set(Workload.FENCED_COUNTER, Long.toString(read + 1),
                    Fence.of(current));
            if (written.accepted()) {
                write.ok();
            } else {
                write.fail("stale write: token " + written.highestToken() + " seen");
            }
            assertThat(written.accepted()).as("the stale write with currentLease()'s token").isFalse();

            assertThatThrownBy(lock::unlock).as("the last unlock").isInstanceOf(LeaseLostException.class);
            assertThat(lock.currentLease()).as("unwound").isEmpty();
            assertThat(lock.tryLock(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).as("locking afresh").isTrue();
            try {
                assertThat(lock.currentLease().orElseThrow().fencingToken()).isGreaterThan(lost.fencingToken());
            } finally {
                lock.unlock();
            }
            return null;
        });
    }

    private <T> T on(Callable<T> step) throws Exception {
        try {
            return thread.submit(step).get(PATIENCE.toSeconds() * 2, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    @Override
    public void close() throws InterruptedException {
        thread.shutdownNow();
        thread.awaitTermination(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        redlock.close();
        storage.close();
        storageClient.shutdown();
    }
}
