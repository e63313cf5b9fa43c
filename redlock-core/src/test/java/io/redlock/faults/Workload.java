package io.redlock.faults;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.RedlockException;
import io.redlock.RetryPolicy;
import io.redlock.TestSeams;
import io.redlock.fencing.Fence;
import io.redlock.fencing.FencedRedis;
import io.redlock.fencing.FencedResult;
import io.redlock.internal.FaultHooks;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.history.History;
import io.redlock.testkit.history.Op;
import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Three workers, each with its own Redlock, take the lock in turn and, inside each critical section, do a fenced
 * read-modify-write of one counter and a plain one of another. The plain history shows whether critical sections
 * overlapped (mutual exclusion without fencing); the fenced one whether the storage ever accepted a stale token or
 * lost an acknowledged increment. With {@link #withSeveral()}, the first and third workers take the lock together
 * with a second resource ({@code Redlock.acquireAll}), the second worker the lock alone: the two kinds of lock must
 * exclude each other on the shared resource. With {@link #withReaders()}, the first worker writes under the write lock
 * of a read-write lock and the other two read under its read lock: they read (fenced and plain) and do not write, so
 * they may hold together but never beside the writer. With {@link #withPermits()}, all three hold permits of a
 * semaphore of {@link #PERMITS}: they read and do not write, and at most that many may hold at once.
 */
final class Workload implements AutoCloseable {

    static final String RESOURCE = "account";
    /** The second resource of a worker that locks several: the resource, then this. */
    static final String ALSO_SUFFIX = ":also";
    static final String FENCED_COUNTER = "counter:fenced";
    static final String PLAIN_COUNTER = "counter:plain";
    static final int WORKERS = 3;
    /** The permits of the semaphore of {@link #withPermits()}: one fewer than the workers, so one always waits. */
    static final int PERMITS = WORKERS - 1;
    /** The longest a worker's pause ({@link #pauseNextHolder}) waits for another worker to hold beside it. */
    static final Duration PATIENCE = RowBench.PATIENCE;

    final Duration ttl;
    private volatile Duration work;
    final History plainHistory = new History(System::nanoTime);
    final History fencedHistory = new History(System::nanoTime);
    final AtomicInteger acquisitions = new AtomicInteger();
    /** Of the acquisitions, those of several resources at once. */
    final AtomicInteger severalAcquisitions = new AtomicInteger();
    /** Of the acquisitions, read locks. */
    final AtomicInteger readerAcquisitions = new AtomicInteger();
    /** Of the acquisitions, permits of a semaphore. */
    final AtomicInteger permitAcquisitions = new AtomicInteger();
    /** Fenced increments the storage acknowledged. */
    final AtomicInteger fencedWrites = new AtomicInteger();
    final AtomicReference<Lease> holder = new AtomicReference<>();
    /** The latest node failure any worker saw, for the message when progress stalls. */
    final AtomicReference<io.redlock.NodeFailure> lastNodeFailure = new AtomicReference<>();
    final List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());

    private final List<Redlock> clients = new ArrayList<>();
    private final FaultHooks hooks = new FaultHooks();
    private final RedisClient storageClient;
    private final StatefulRedisConnection<String, String> storageConnection;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopping;
    private volatile Duration pauseNextHolder;
    private volatile Victims victims;
    private volatile LiveHolds live = new LiveHolds(Integer.MAX_VALUE);
    private volatile boolean extendEachHold;
    private volatile java.util.function.Consumer<Lease> onHolding = lease -> { };
    private final String processPrefix;
    private volatile String resource = RESOURCE;
    private volatile boolean several;
    private volatile boolean readers;
    private volatile boolean permits;

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
            UnaryOperator<Redlock.Builder> tune) {
        this.ttl = ttl;
        this.work = ttl.dividedBy(3);
        this.processPrefix = processPrefix;
        this.storageClient = RedisClient.create(storageUri);
        this.storageConnection = storageClient.connect();
        if (init) {
            storageConnection.sync().mset(java.util.Map.of(FENCED_COUNTER, "0", PLAIN_COUNTER, "0"));
        }
        for (int i = 0; i < workers; i++) {
            clients.add(tune.apply(TestSeams.with(Redlock.builder(), hooks)).nodes(lockUris).nodeTimeout(Duration.ofMillis(100))
                    .retry(RetryPolicy.uniform(Duration.ofMillis(20), Duration.ofMillis(60)))
                    .observer(new io.redlock.RedlockObserver() {
                        @Override
                        public void nodeFailed(io.redlock.NodeFailure failure) {
                            lastNodeFailure.set(failure);
                        }
                    }).build());
        }
    }

    /** Before {@link #start()}: the workers lock {@code resource} instead of {@link #RESOURCE}. */
    Workload on(String resource) {
        this.resource = resource;
        return this;
    }

    /** Before {@link #start()}: the first and third workers lock {@link #RESOURCE} with a second resource. */
    Workload withSeveral() {
        this.several = true;
        return this;
    }

    /** Before {@link #start()}: the first worker writes under a write lock, the others read under the read lock. */
    Workload withReaders() {
        this.readers = true;
        return this;
    }

    /** Before {@link #start()}: every worker reads under a permit of a semaphore of {@link #PERMITS}. */
    Workload withPermits() {
        this.permits = true;
        return this;
    }

    /**
     * The lock keys the workers take: the resource, the second resource if some lock several, the readers' or the
     * permit holders'.
     */
    List<String> lockKeys() {
        if (several) {
            return List.of(resource, resource + ALSO_SUFFIX);
        }
        if (permits) {
            return List.of(resource, resource + io.redlock.RedlockConfig.PERMITS_SUFFIX);
        }
        return readers ? List.of(resource, resource + io.redlock.RedlockConfig.READERS_SUFFIX) : List.of(resource);
    }

    /** Whether {@code worker} (from 0) only reads: under a read lock, or a permit. */
    private boolean reads(int worker) {
        return (readers && worker > 0) || permits;
    }

    /** How many shared holds may overlap: the permits, or any number of readers. */
    int sharedAtOnce() {
        return permits ? PERMITS : Integer.MAX_VALUE;
    }

    /** How many holders fill the lock: every permit, or the one exclusive holder. */
    int holdersToFill() {
        return permits ? PERMITS : 1;
    }

    /** How many workers there are. */
    int workers() {
        return clients.size();
    }

    /** How many workers write (the fenced increments come from them). */
    int writers() {
        return permits ? 0 : readers ? 1 : clients.size();
    }

    /** Which holds are shared, by their ACQUIRE event: the readers' and the permit holders'. */
    java.util.function.Predicate<io.redlock.testkit.history.Event> sharedHolds() {
        if (!readers && !permits) {
            return acquire -> false;
        }
        java.util.Set<String> readingProcesses = new java.util.HashSet<>();
        for (int i = 0; i < clients.size(); i++) {
            if (reads(i)) {
                readingProcesses.add(processPrefix + (i + 1));
            }
        }
        return acquire -> readingProcesses.contains(acquire.process());
    }

    /** Starts the workers; each runs until {@link #stop()}. */
    Workload start() {
        live = new LiveHolds(sharedAtOnce());
        for (int i = 0; i < clients.size(); i++) {
            String process = processPrefix + (i + 1);
            Redlock redlock = clients.get(i);
            Kind kind = several && i % 2 == 0 ? Kind.SEVERAL : permits ? Kind.PERMIT : reads(i) ? Kind.READER
                    : Kind.ONE;
            Thread thread = new Thread(() -> loop(process, redlock, kind), process);
            threads.add(thread);
            thread.start();
        }
        return this;
    }

    /** Called in each critical section, after the reads. */
    void onHolding(java.util.function.Consumer<Lease> callback) {
        this.onHolding = callback;
    }

    /**
     * The next worker to hold the lock (a writer, or permit holder) stops between its reads and its writes (a GC
     * pause) for {@code pause}, and on until another worker holds beside it (at most {@link #PATIENCE}): its lease runs
     * out meanwhile, and the overlap of critical sections that follows does not depend on how fast the others are.
     */
    void pauseNextHolder(Duration pause) {
        pauseNextHolder = pause;
    }

    /**
     * The next {@code count} acquisitions by a writer (or permit holder) take a lease of {@code ttl} and stop in their
     * critical section, after their reads, until the returned {@link Victims} lets them go.
     */
    Victims holdNext(int count, Duration ttl) {
        Victims next = new Victims(count, ttl);
        victims = next;
        return next;
    }

    /**
     * Waits until more workers held at once than the lock allows (see {@link LiveHolds}), at {@code since}
     * ({@link System#nanoTime()}) or later.
     *
     * @throws AssertionError if they did not within {@code within}
     */
    void awaitConflict(long since, Duration within, String why) throws InterruptedException {
        live.awaitConflict(since, within, why);
    }

    /** How many acquisitions succeeded that were begun at or after {@code nanos} ({@link System#nanoTime()}). */
    long acquiredSince(long nanos) {
        return acquiredBetween(nanos, Long.MAX_VALUE);
    }

    /**
     * How many acquisitions succeeded that were begun at or after {@code from} and recorded as done before {@code to}
     * (both {@link System#nanoTime()}): what a fault lasting from {@code from} to {@code to} let through. One the library
     * granted before {@code to} but the worker recorded later (a pause) is not counted; one granted later never is.
     */
    long acquiredBetween(long from, long to) {
        return plainHistory.events().stream().filter(e -> e.op() == Op.ACQUIRE && !e.pending()
                && e.outcome() == io.redlock.testkit.history.Outcome.OK && e.invokedAt() >= from
                && e.completedAt() < to).count();
    }

    /** From now on every holder works {@code work} (default TTL/3) in its critical section, between reads and writes. */
    void workFor(Duration work) {
        this.work = work;
    }

    /** From now on every holder extends its lease by the TTL after the work, and writes only if that succeeded. */
    void extendEachHold() {
        extendEachHold = true;
    }

    /** The current holder, waiting (bounded) for one. */
    Lease awaitHolder(Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (System.nanoTime() < deadline) {
            Lease lease = holder.get();
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
        await(acquisitions, more, within, "acquisitions");
    }

    /**
     * Waits until the storage acknowledged {@code more} further fenced increments (from the workers that write: see
     * {@link #writers()}).
     *
     * @throws AssertionError if it did not within {@code within}, or a worker failed meanwhile
     */
    void awaitWrites(int more, Duration within) throws InterruptedException {
        await(fencedWrites, more, within, "acknowledged fenced increments");
    }

    private void await(AtomicInteger count, int more, Duration within, String what) throws InterruptedException {
        int start = count.get();
        long deadline = System.nanoTime() + within.toNanos();
        while (count.get() < start + more && errors.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        if (!errors.isEmpty()) {
            throw new AssertionError("a worker failed", errors.get(0));
        }
        int made = count.get() - start;
        if (made < more) {
            throw new AssertionError(String.format(java.util.Locale.ROOT,
                    "no progress: %d of %d further %s within %s (whole run: %s; last node failure: %s)", made,
                    more, what, within, attempts(), lastNodeFailure.get()));
        }
    }

    /** The acquire attempts so far by outcome, e.g. {@code "12 ok, 3 failed, 0 unknown"}. */
    String attempts() {
        java.util.Map<io.redlock.testkit.history.Outcome, Long> counts = plainHistory.events().stream()
                .filter(e -> e.op() == Op.ACQUIRE && !e.pending())
                .collect(java.util.stream.Collectors.groupingBy(io.redlock.testkit.history.Event::outcome,
                        java.util.stream.Collectors.counting()));
        return counts.getOrDefault(io.redlock.testkit.history.Outcome.OK, 0L) + " ok, "
                + counts.getOrDefault(io.redlock.testkit.history.Outcome.FAIL, 0L) + " failed, "
                + counts.getOrDefault(io.redlock.testkit.history.Outcome.UNKNOWN, 0L) + " unknown";
    }

    void stop() throws InterruptedException {
        stopping = true;
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

    /** What lock a worker takes. */
    private enum Kind {
        /** The resource's lock. */
        ONE,
        /** The resource's lock with a second resource's. */
        SEVERAL,
        /** A read lock of the resource. */
        READER,
        /** A permit of the resource's semaphore. */
        PERMIT
    }

    private void loop(String process, Redlock redlock, Kind kind) {
        RedisCommands<String, String> plain = storageConnection.sync();
        FencedRedis fenced = FencedRedis.on(storageConnection);
        while (!stopping) {
            try {
                iteration(process, redlock, kind, plain, fenced);
            } catch (RedlockException e) {
                // a node fault surfaced as an error: the attempt failed; the workload goes on
            } catch (RuntimeException | Error e) {
                errors.add(e);
                return;
            }
        }
    }

    private void iteration(String process, Redlock redlock, Kind kind, RedisCommands<String, String> plain,
            FencedRedis fenced) {
        Victims scheduled = kind == Kind.READER ? null : victims;
        boolean victim = scheduled != null && scheduled.claim();
        Duration ttl = victim ? scheduled.ttl : this.ttl;
        History.Call plainAcquire = plainHistory.invoke(process, Op.ACQUIRE, null, -1, null);
        History.Call fencedAcquire = fencedHistory.invoke(process, Op.ACQUIRE, null, -1, null);
        Optional<Lease> acquired;
        try {
            acquired = switch (kind) {
                case SEVERAL -> redlock.acquireAll(lockKeys(), ttl, this.ttl.multipliedBy(3)).map(SeveralAsOne::new);
                case READER -> redlock.readWriteLock(resource).acquireRead(ttl, this.ttl.multipliedBy(3));
                case PERMIT -> redlock.semaphore(resource, PERMITS).acquire(ttl, this.ttl.multipliedBy(3));
                case ONE -> redlock.acquire(resource, ttl, this.ttl.multipliedBy(3));
            };
        } catch (RedlockException e) {
            if (victim) {
                scheduled.unclaim();
            }
            String why = "maybe acquired: " + e.getClass().getSimpleName();
            plainAcquire.unknown(why);
            fencedAcquire.unknown(why);
            return;
        }
        if (acquired.isEmpty()) {
            if (victim) {
                scheduled.unclaim();
            }
            plainAcquire.fail("not acquired");
            fencedAcquire.fail("not acquired");
            return;
        }
        Lease lease = acquired.get();
        long token = lease.fencingToken();
        plainAcquire.okAcquired(lease.value(), token, lease.validUntil());
        fencedAcquire.okAcquired(lease.value(), token, lease.validUntil());
        acquisitions.incrementAndGet();
        if (kind == Kind.SEVERAL) {
            severalAcquisitions.incrementAndGet();
        }
        if (kind == Kind.READER) {
            readerAcquisitions.incrementAndGet();
        }
        if (kind == Kind.PERMIT) {
            permitAcquisitions.incrementAndGet();
        }
        holder.set(lease);
        live.entered(lease, kind == Kind.READER || kind == Kind.PERMIT);
        try {
            hold(process, lease, kind, plain, fenced, victim ? scheduled : null);
        } finally {
            holder.compareAndSet(lease, null);
            live.left(lease);
                release(process, lease);
        }
    }

    /**
     * The critical section: reads, the work (and an extension, if asked), then the writes (not for a reader or a
     * permit holder). The pause of {@link #pauseNextHolder} falls on the next writer, or permit holder.
     */
    private void hold(String process, Lease lease, Kind kind, RedisCommands<String, String> plain,
            FencedRedis fenced, Victims scheduled) {
        long token = lease.fencingToken();
        Fence fence = Fence.of(lease);
        History.Call fencedRead = fencedHistory.invoke(process, Op.READ, lease.value(), token, null);
        FencedResult<String> read = storage(fencedRead, () -> fenced.get(FENCED_COUNTER, fence));
        Long fencedValue = read.accepted() ? Long.valueOf(read.value()) : null;
        if (fencedValue != null) {
            fencedRead.okRead(fencedValue);
        } else {
            fencedRead.fail("stale read: token " + read.highestToken() + " seen");
        }
        History.Call plainRead = plainHistory.invoke(process, Op.READ, lease.value(), -1, null);
        long plainValue = Long.parseLong(storage(plainRead, () -> plain.get(PLAIN_COUNTER)));
        plainRead.okRead(plainValue);

        onHolding.accept(lease);
        if (scheduled != null) {
            scheduled.hold(lease);
        }
        sleep(work);
        if (extendEachHold && !extend(process, lease)) {
            return; // not extended: the worker gives the critical section up without writing
        }
        if (kind == Kind.READER) {
            return; // a reader only reads
        }
        Duration pause = pauseNextHolder;
        if (pause != null) {
            pauseNextHolder = null;
            long paused = System.nanoTime();
            sleep(pause); // the GC pause: the lease runs out while this worker does nothing
            long deadline = paused + PATIENCE.toNanos();
            while (!live.conflictSince(paused) && !stopping && System.nanoTime() - deadline < 0) {
                sleep(Duration.ofMillis(2)); // ... and goes on until another worker held beside it
            }
        }
        if (kind == Kind.PERMIT) {
            return; // a permit holder only reads: holders of one semaphore hold together
        }

        if (fencedValue != null) {
            History.Call fencedWrite = fencedHistory.invoke(process, Op.WRITE, lease.value(), token, fencedValue + 1);
            FencedResult<Void> written = storage(fencedWrite,
                    () -> fenced.set(FENCED_COUNTER, Long.toString(fencedValue + 1), fence));
            if (written.accepted()) {
                fencedWrite.ok();
                fencedWrites.incrementAndGet();
            } else {
                fencedWrite.fail("stale write: token " + written.highestToken() + " seen");
            }
        }
        History.Call plainWrite = plainHistory.invoke(process, Op.WRITE, lease.value(), -1, plainValue + 1);
        storage(plainWrite, () -> plain.set(PLAIN_COUNTER, Long.toString(plainValue + 1)));
        plainWrite.ok();
    }

    /** Extends the lease by the TTL; false (recorded as fail or unknown) if it was not confirmed. */
    private boolean extend(String process, Lease lease) {
        History.Call plainExtend = plainHistory.invoke(process, Op.EXTEND, lease.value(), lease.fencingToken(), null);
        History.Call fencedExtend = fencedHistory.invoke(process, Op.EXTEND, lease.value(), lease.fencingToken(),
                null);
        boolean extended;
        try {
            extended = lease.extend(ttl);
        } catch (RedlockException e) {
            String why = "maybe extended: " + e.getClass().getSimpleName();
            plainExtend.unknown(why);
            fencedExtend.unknown(why);
            return false;
        }
        if (extended) {
            plainExtend.okValid(lease.validUntil());
            fencedExtend.okValid(lease.validUntil());
        } else {
            plainExtend.fail("not extended");
            fencedExtend.fail("not extended");
        }
        return extended;
    }

    /** Releases the lease; recorded ok once the call returned, unknown if it threw (maybe released). */
    private void release(String process, Lease lease) {
        History.Call plainRelease = plainHistory.invoke(process, Op.RELEASE, lease.value(), lease.fencingToken(),
                null);
        History.Call fencedRelease = fencedHistory.invoke(process, Op.RELEASE, lease.value(), lease.fencingToken(),
                null);
        try {
            lease.release();
        } catch (RedlockException e) {
            String why = "maybe released: " + e.getClass().getSimpleName();
            plainRelease.unknown(why);
            fencedRelease.unknown(why);
            return;
        }
        plainRelease.ok();
        fencedRelease.ok();
    }

    /**
     * A storage call: the storage node is never faulted, so an exception is a test error; it is recorded first, as
     * unknown (a write may have been applied) or as a failed read.
     */
    private static <T> T storage(History.Call call, java.util.function.Supplier<T> operation) {
        try {
            return operation.get();
        } catch (RuntimeException e) {
            if (call.event().op() == Op.WRITE) {
                call.unknown("maybe written: " + e.getClass().getSimpleName());
            } else {
                call.fail("read failed: " + e.getClass().getSimpleName());
            }
            throw e;
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
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
