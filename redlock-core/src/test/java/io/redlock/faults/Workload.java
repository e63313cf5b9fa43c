package io.redlock.faults;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.Lease;
import io.redlock.NodeFailure;
import io.redlock.Observed;
import io.redlock.Redlock;
import io.redlock.RedlockBuilder;
import io.redlock.RedlockObserver;
import io.redlock.RetryPolicy;
import io.redlock.TestInjection;
import io.redlock.internal.parts.FaultHooks;
import io.redlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * Three workers, each with its own Redlock, take the lock in turn and, inside each critical section, do a fenced
 * read-modify-write of one counter and a plain one of another. The plain history shows whether critical sections
 * overlapped (mutual exclusion without fencing); the fenced one whether the storage ever accepted a stale token or
 * lost an acknowledged increment. With {@link #withSeveral()}, the first and third workers take the lock together
 * with a second resource ({@code Redlock.acquireAll}), the second worker the lock alone: the two kinds of lock must
 * exclude each other on the shared resource. With {@link #withReaders()}, the first worker writes under the write lock
 * of a read-write lock and the other two read under its read lock: they read (fenced and plain) and do not write, so
 * they may hold together but never beside the writer. With {@link #withPermits()}, all three hold permits of a
 * semaphore of {@link WorkerLocks#PERMITS}: they read and do not write, and at most that many may hold at once.
 *
 * <p>What the workers lock is in {@link #locks}, what they recorded in {@link #record}, what the row tells the next
 * holders to do in {@link #schedule}; each {@link Worker} runs on a thread of its own.
 */
final class Workload implements AutoCloseable {

    static final String RESOURCE = "account";
    static final String FENCED_COUNTER = "counter:fenced";
    static final String PLAIN_COUNTER = "counter:plain";
    static final int WORKERS = 3;

    final Duration ttl;
    final WorkerLocks locks;
    final WorkRecord record = new WorkRecord();
    final HolderSchedule schedule;

    private final List<Redlock> clients = new ArrayList<>();
    private final FaultHooks hooks = new FaultHooks();
    private final RedisClient storageClient;
    private final StatefulRedisConnection<String, String> storageConnection;
    private final List<Worker> workers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    /** The workers' fault hooks (one set, shared by their clients). */
    FaultHooks hooks() {
        return hooks;
    }

    Workload(List<String> lockUris, RedisServer storage, Duration ttl) {
        this(lockUris, storage.uri(), ttl, WORKERS, "worker-", true);
    }

    /** Workers named {@code processPrefix1..n}; {@code init} sets both counters to 0. */
    Workload(List<String> lockUris, String storageUri, Duration ttl, int workers, String processPrefix, boolean init) {
        this(lockUris, storageUri, ttl, workers, processPrefix, init, UnaryOperator.identity());
    }

    /** As above, each worker's Redlock configured further by {@code tune}. */
    Workload(List<String> lockUris, String storageUri, Duration ttl, int workers, String processPrefix, boolean init,
            UnaryOperator<RedlockBuilder> tune) {
        this.ttl = ttl;
        this.locks = new WorkerLocks(workers, processPrefix);
        this.schedule = new HolderSchedule(ttl.dividedBy(3));
        this.storageClient = RedisClient.create(storageUri);
        this.storageConnection = storageClient.connect();
        if (init) {
            storageConnection.sync().mset(Map.of(FENCED_COUNTER, "0", PLAIN_COUNTER, "0"));
        }
        for (int i = 0; i < workers; i++) {
            RedlockBuilder builder = tune.apply(TestInjection.with(Redlock.builder(), hooks)).nodes(lockUris)
                    .nodeTimeout(Duration.ofMillis(100))
                    .retry(RetryPolicy.uniform(Duration.ofMillis(20), Duration.ofMillis(60)));
            clients.add(Observed.build(builder, new RedlockObserver() {
                        @Override
                        public void nodeFailed(NodeFailure failure) {
                            record.lastNodeFailure.set(failure);
                        }
                    }));
        }
    }

    /** Before {@link #start()}: the workers lock {@code resource} instead of {@link #RESOURCE}. */
    Workload on(String resource) {
        locks.on(resource);
        return this;
    }

    /** Before {@link #start()}: the first and third workers lock {@link #RESOURCE} with a second resource. */
    Workload withSeveral() {
        locks.withSeveral();
        return this;
    }

    /** Before {@link #start()}: the first worker writes under a write lock, the others read under the read lock. */
    Workload withReaders() {
        locks.withReaders();
        return this;
    }

    /** Before {@link #start()}: every worker reads under a permit of a semaphore of {@link WorkerLocks#PERMITS}. */
    Workload withPermits() {
        locks.withPermits();
        return this;
    }

    /** How many workers there are. */
    int workers() {
        return clients.size();
    }

    /** Starts the workers; each runs until {@link #stop()}. */
    Workload start() {
        schedule.start(locks.sharedAtOnce());
        for (int i = 0; i < clients.size(); i++) {
            Worker worker = new Worker(i, clients.get(i), ttl, storageConnection, locks, record, schedule);
            Thread thread = new Thread(worker, worker.process());
            workers.add(worker);
            threads.add(thread);
            thread.start();
        }
        return this;
    }

    /** The current holder, waiting (bounded) for one. */
    Lease awaitHolder(Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            Lease lease = record.holder.get();
            if (lease != null) {
                return lease;
            }
            Thread.sleep(2);
        }
        throw new AssertionError("no worker held the lock within " + within);
    }

    /**
     * Waits until the workers made {@code more} further acquisitions.
     *
     * @throws AssertionError if they did not within {@code within}, or a worker failed meanwhile
     */
    void awaitAcquisitions(int more, Duration within) throws InterruptedException {
        await(record.acquisitions, more, within, "acquisitions");
    }

    /**
     * Waits until the storage acknowledged {@code more} further fenced increments (from the workers that write: see
     * {@link WorkerLocks#writers()}).
     *
     * @throws AssertionError if it did not within {@code within}, or a worker failed meanwhile
     */
    void awaitWrites(int more, Duration within) throws InterruptedException {
        await(record.fencedWrites, more, within, "acknowledged fenced increments");
    }

    private void await(AtomicInteger count, int more, Duration within, String what) throws InterruptedException {
        int start = count.get();
        long deadline = System.nanoTime() + within.toNanos();
        while (count.get() < start + more && record.errors.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        if (!record.errors.isEmpty()) {
            throw new AssertionError("a worker failed", record.errors.get(0));
        }
        int made = count.get() - start;
        if (made < more) {
            throw new AssertionError(String.format(Locale.ROOT,
                    "no progress: %d of %d further %s within %s (whole run: %s; last node failure: %s)", made,
                    more, what, within, record.attempts(), record.lastNodeFailure.get()));
        }
    }

    void stop() throws InterruptedException {
        workers.forEach(Worker::stop);
        for (Thread thread : threads) {
            thread.join(Duration.ofSeconds(30).toMillis());
        }
    }

    long fencedCounter() {
        return Long.parseLong(storageConnection.sync().get(FENCED_COUNTER));
    }

    long plainCounter() {
        return Long.parseLong(storageConnection.sync().get(PLAIN_COUNTER));
    }

    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        clients.forEach(Redlock::close);
        storageConnection.close();
        storageClient.shutdown();
    }
}
