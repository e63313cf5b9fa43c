package io.redlock.faults;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.RedlockException;
import io.redlock.faults.WorkerLocks.Kind;
import io.redlock.fencing.Fence;
import io.redlock.fencing.FencedRedis;
import io.redlock.fencing.FencedResult;
import io.redlock.testkit.history.History;
import io.redlock.testkit.history.Op;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One worker of a {@link Workload}, run on a thread of its own until {@link #stop()}: it takes its kind of lock and,
 * inside each critical section, does a fenced read-modify-write of one counter and a plain one of another (only the
 * reads under a read lock or a permit), recording every call in both histories. What the rows schedule
 * ({@link HolderSchedule}) happens inside its critical sections.
 */
final class Worker implements Runnable {

    private final String process;
    private final Kind kind;
    private final Redlock redlock;
    private final Duration ttl;
    private final StatefulRedisConnection<String, String> storageConnection;
    private final WorkerLocks locks;
    private final WorkRecord record;
    private final HolderSchedule schedule;
    private volatile boolean stopping;

    /** Worker {@code index} (from 0) of {@code locks}, on {@code redlock} with leases of {@code ttl}. */
    Worker(int index, Redlock redlock, Duration ttl, StatefulRedisConnection<String, String> storageConnection,
            WorkerLocks locks, WorkRecord record, HolderSchedule schedule) {
        this.process = locks.process(index);
        this.kind = locks.kind(index);
        this.redlock = redlock;
        this.ttl = ttl;
        this.storageConnection = storageConnection;
        this.locks = locks;
        this.record = record;
        this.schedule = schedule;
    }

    /** The worker's name in the histories. */
    String process() {
        return process;
    }

    /** Ends the worker after its current attempt. */
    void stop() {
        stopping = true;
    }

    @Override
    public void run() {
        RedisCommands<String, String> plain = storageConnection.sync();
        FencedRedis fenced = FencedRedis.on(storageConnection);
        while (!stopping) {
            try {
                iteration(plain, fenced);
            } catch (RedlockException e) {
                // a node fault surfaced as an error: the attempt failed; the workload goes on
            } catch (RuntimeException | Error e) {
                record.errors.add(e);
                return;
            }
        }
    }

    private void iteration(RedisCommands<String, String> plain, FencedRedis fenced) {
        Victims scheduled = kind == Kind.READER ? null : schedule.victims();
        boolean victim = scheduled != null && scheduled.claim();
        Duration ttl = victim ? scheduled.ttl : this.ttl;
        History.Call plainAcquire = record.plainHistory.invoke(process, Op.ACQUIRE, null, -1, null);
        History.Call fencedAcquire = record.fencedHistory.invoke(process, Op.ACQUIRE, null, -1, null);
        Optional<Lease> acquired;
        try {
            acquired = locks.acquire(redlock, kind, ttl, this.ttl.multipliedBy(3));
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
        record.acquisitions.incrementAndGet();
        if (kind == Kind.SEVERAL) {
            record.severalAcquisitions.incrementAndGet();
        }
        if (kind == Kind.READER) {
            record.readerAcquisitions.incrementAndGet();
        }
        if (kind == Kind.PERMIT) {
            record.permitAcquisitions.incrementAndGet();
        }
        record.holder.set(lease);
        schedule.live().entered(lease, kind == Kind.READER || kind == Kind.PERMIT);
        try {
            hold(lease, plain, fenced, victim ? scheduled : null);
        } finally {
            record.holder.compareAndSet(lease, null);
            schedule.live().left(lease);
            release(lease);
        }
    }

    /**
     * The critical section: reads, the work (and an extension, if asked), then the writes (not for a reader or a
     * permit holder). The pause of {@link HolderSchedule#pauseNextHolder} falls on the next writer, or permit holder.
     */
    private void hold(Lease lease, RedisCommands<String, String> plain, FencedRedis fenced, Victims scheduled) {
        long token = lease.fencingToken();
        Fence fence = Fence.of(lease);
        History.Call fencedRead = record.fencedHistory.invoke(process, Op.READ, lease.value(), token, null);
        FencedResult<String> read = storage(fencedRead, () -> fenced.get(Workload.FENCED_COUNTER, fence));
        Long fencedValue = read.accepted() ? Long.valueOf(read.value()) : null;
        if (fencedValue != null) {
            fencedRead.okRead(fencedValue);
        } else {
            fencedRead.fail("stale read: token " + read.highestToken() + " seen");
        }
        History.Call plainRead = record.plainHistory.invoke(process, Op.READ, lease.value(), -1, null);
        long plainValue = Long.parseLong(storage(plainRead, () -> plain.get(Workload.PLAIN_COUNTER)));
        plainRead.okRead(plainValue);

        schedule.holding(lease);
        if (scheduled != null) {
            scheduled.hold(lease);
        }
        sleep(schedule.work());
        if (schedule.extendsEachHold() && !extend(lease)) {
            return; // not extended: the worker gives the critical section up without writing
        }
        if (kind == Kind.READER) {
            return; // a reader only reads
        }
        Duration pause = schedule.takePause();
        if (pause != null) {
            long paused = System.nanoTime();
            sleep(pause); // the GC pause: the lease runs out while this worker does nothing
            long deadline = paused + HolderSchedule.PATIENCE.toNanos();
            while (!schedule.live().conflictSince(paused) && !stopping && System.nanoTime() - deadline < 0) {
                sleep(Duration.ofMillis(2)); // ... and goes on until another worker held beside it
            }
        }
        if (kind == Kind.PERMIT) {
            return; // a permit holder only reads: holders of one semaphore hold together
        }

        if (fencedValue != null) {
            History.Call fencedWrite = record.fencedHistory.invoke(process, Op.WRITE, lease.value(), token,
                    fencedValue + 1);
            FencedResult<Void> written = storage(fencedWrite,
                    () -> fenced.set(Workload.FENCED_COUNTER, Long.toString(fencedValue + 1), fence));
            if (written.accepted()) {
                fencedWrite.ok();
                record.fencedWrites.incrementAndGet();
            } else {
                fencedWrite.fail("stale write: token " + written.highestToken() + " seen");
            }
        }
        History.Call plainWrite = record.plainHistory.invoke(process, Op.WRITE, lease.value(), -1, plainValue + 1);
        storage(plainWrite, () -> plain.set(Workload.PLAIN_COUNTER, Long.toString(plainValue + 1)));
        plainWrite.ok();
    }

    /** Extends the lease by the TTL; false (recorded as fail or unknown) if it was not confirmed. */
    private boolean extend(Lease lease) {
        History.Call plainExtend = record.plainHistory.invoke(process, Op.EXTEND, lease.value(), lease.fencingToken(),
                null);
        History.Call fencedExtend = record.fencedHistory.invoke(process, Op.EXTEND, lease.value(),
                lease.fencingToken(), null);
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
    private void release(Lease lease) {
        History.Call plainRelease = record.plainHistory.invoke(process, Op.RELEASE, lease.value(),
                lease.fencingToken(), null);
        History.Call fencedRelease = record.fencedHistory.invoke(process, Op.RELEASE, lease.value(),
                lease.fencingToken(), null);
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
    private static <T> T storage(History.Call call, Supplier<T> operation) {
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
}
