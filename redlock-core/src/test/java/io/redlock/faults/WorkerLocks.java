package io.redlock.faults;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.internal.protocol.Keys;
import io.redlock.testkit.history.Event;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * What the workers of a {@link Workload} lock: the resource, by default alone; with {@link #withSeveral()}, the first
 * and third workers with a second resource; with {@link #withReaders()}, the first under the write lock and the others
 * under the read lock; with {@link #withPermits()}, every worker under a permit of a semaphore of {@link #PERMITS}. And
 * what follows from it: each worker's kind of lock, the keys, which holds are shared, how many workers write.
 */
final class WorkerLocks {

    /** The second resource of a worker that locks several: the resource, then this. */
    static final String ALSO_SUFFIX = ":also";
    /** The permits of the semaphore of {@link #withPermits()}: one fewer than the workers, so one always waits. */
    static final int PERMITS = Workload.WORKERS - 1;

    private final int workers;
    private final String processPrefix;
    private volatile String resource = Workload.RESOURCE;
    private volatile boolean several;
    private volatile boolean readers;
    private volatile boolean permits;

    /** The locks of {@code workers} workers named {@code processPrefix1..n}. */
    WorkerLocks(int workers, String processPrefix) {
        this.workers = workers;
        this.processPrefix = processPrefix;
    }

    /** Before the workers start: they lock {@code resource} instead of {@link Workload#RESOURCE}. */
    void on(String resource) {
        this.resource = resource;
    }

    /** Before the workers start: the first and third lock the resource with a second resource. */
    void withSeveral() {
        this.several = true;
    }

    /** Before the workers start: the first writes under a write lock, the others read under the read lock. */
    void withReaders() {
        this.readers = true;
    }

    /** Before the workers start: every worker reads under a permit of a semaphore of {@link #PERMITS}. */
    void withPermits() {
        this.permits = true;
    }

    /** The name of {@code worker} (from 0) in the histories. */
    String process(int worker) {
        return processPrefix + (worker + 1);
    }

    /** The kind of lock {@code worker} (from 0) takes. */
    Kind kind(int worker) {
        return several && worker % 2 == 0 ? Kind.SEVERAL : permits ? Kind.PERMIT : reads(worker) ? Kind.READER
                : Kind.ONE;
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
            return List.of(resource, resource + Keys.PERMITS_SUFFIX);
        }
        return readers ? List.of(resource, resource + Keys.READERS_SUFFIX) : List.of(resource);
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

    /** How many workers write (the fenced increments come from them). */
    int writers() {
        return permits ? 0 : readers ? 1 : workers;
    }

    /** Which holds are shared, by their ACQUIRE event: the readers' and the permit holders'. */
    Predicate<Event> sharedHolds() {
        if (!readers && !permits) {
            return acquire -> false;
        }
        Set<String> readingProcesses = new HashSet<>();
        for (int i = 0; i < workers; i++) {
            if (reads(i)) {
                readingProcesses.add(process(i));
            }
        }
        return acquire -> readingProcesses.contains(acquire.process());
    }

    /** Takes a lock of {@code kind} on {@code redlock} with a lease of {@code ttl}, waiting at most {@code wait}. */
    Optional<Lease> acquire(Redlock redlock, Kind kind, Duration ttl, Duration wait) {
        return switch (kind) {
            case SEVERAL -> redlock.acquireAll(lockKeys(), ttl, wait).map(SeveralAsOne::new);
            case READER -> redlock.readWriteLock(resource).acquireRead(ttl, wait);
            case PERMIT -> redlock.semaphore(resource, PERMITS).acquire(ttl, wait);
            case ONE -> redlock.acquire(resource, ttl, wait);
        };
    }

    /** What lock a worker takes. */
    enum Kind {
        /** The resource's lock. */
        ONE,
        /** The resource's lock with a second resource's. */
        SEVERAL,
        /** A read lock of the resource. */
        READER,
        /** A permit of the resource's semaphore. */
        PERMIT
    }
}
