package io.redlock.cli;

import io.redlock.Lease;
import io.redlock.LockNotAcquiredException;
import io.redlock.LockOptions;
import io.redlock.MultiLease;
import io.redlock.Redlock;
import io.redlock.RedlockException;
import io.redlock.RedlockLock;
import io.redlock.fencing.FencedRedis;
import io.redlock.testkit.history.History;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

/**
 * One in-process client of a randomized run, on a thread of its own with a {@link Redlock} of its own, taking its
 * kind of hold again and again until stopped, and recording each in its resource's history ({@link NemesisHold}).
 * An error from a node fault ends the attempt; any other error ends the client and is kept for the verdict.
 */
final class NemesisClient implements Runnable {

    /** The kinds of client, each with the resource whose history it records into. */
    enum Kind {
        /** A lease of fixed TTL, a fenced read-modify-write, a release. */
        FENCED(NemesisLog.ACCOUNT),
        /** The same with a client built with {@code fencing(false)}: it holds, and does not write. */
        UNFENCED(NemesisLog.ACCOUNT),
        /** A blocking {@code withLock} frame: the watchdog keeps the lease while the work runs up to 2 TTLs. */
        KEPT(NemesisLog.ACCOUNT),
        /** A {@code RedlockLock} ({@code tryLock} with a wait, kept alive), unlocked after the work. */
        LOCK(NemesisLog.ACCOUNT),
        /** The account's lock with a second resource's ({@code acquireAll}). */
        SEVERAL(NemesisLog.ACCOUNT),
        /** The write lock of the catalog's read-write lock, with fenced writes. */
        WRITER(NemesisLog.CATALOG),
        /** A read lease of the catalog ({@code acquireRead}). */
        READER(NemesisLog.CATALOG),
        /** The catalog's read lock as a {@code RedlockLock} ({@code readLock().tryLock}, kept alive). */
        READ_LOCK(NemesisLog.CATALOG),
        /** A permit of the pool's semaphore. */
        PERMIT(NemesisLog.POOL);

        final String resource;

        Kind(String resource) {
            this.resource = resource;
        }
    }

    private final Kind kind;
    private final String process;
    private final Redlock redlock;
    private final FencedRedis fenced;
    private final Duration ttl;
    private final History history;
    private final NemesisLog log;
    private final Random random;
    /** The {@code Lock} of a {@link Kind#LOCK} or {@link Kind#READ_LOCK} client, else null. */
    private final RedlockLock lock;
    private volatile boolean stopping;

    NemesisClient(Kind kind, String process, Redlock redlock, FencedRedis fenced, Duration ttl, NemesisLog log,
            long seed) {
        this.kind = kind;
        this.process = process;
        this.redlock = redlock;
        this.fenced = fenced;
        this.ttl = ttl;
        this.history = log.of(kind.resource);
        this.log = log;
        this.random = new Random(seed);
        this.lock = kind == Kind.LOCK ? redlock.lock(kind.resource)
                : kind == Kind.READ_LOCK ? redlock.readWriteLock(kind.resource).readLock() : null;
    }

    String process() {
        return process;
    }

    /** Ends the client after its current hold. */
    void stop() {
        stopping = true;
    }

    @Override
    public void run() {
        while (!stopping) {
            History.Call attempt = NemesisHold.attempt(history, process);
            try {
                once(attempt);
            } catch (LockNotAcquiredException e) {
                attempt.fail("not acquired");
            } catch (RedlockException e) {
                if (attempt.event().pending()) {
                    attempt.unknown("maybe acquired: " + e.getClass().getSimpleName());
                }
            } catch (RuntimeException | Error e) {
                log.errors.add(new AssertionError(process + " failed", e));
                return;
            } finally {
                Thread.interrupted(); // a kept lease's loss interrupts its work: not the next attempt's concern
            }
            if (!stopping) {
                pause(ttl.multipliedBy(random.nextInt(25)).dividedBy(100)); // between holds, as an application does
            }
        }
    }

    private void once(History.Call attempt) {
        Duration wait = ttl.multipliedBy(2);
        switch (kind) {
            case FENCED, UNFENCED, WRITER, READER, PERMIT -> leased(attempt, lease(wait));
            case KEPT -> redlock.withLock(kind.resource, LockOptions.builder().ttl(ttl).maxWait(wait).build(),
                    lease -> {
                        NemesisHold hold = NemesisHold.granted(history, attempt, fenced, lease.value(),
                                lease.fencingToken(), lease::validUntil);
                        try {
                            work(hold, ttl.multipliedBy(2));
                        } finally {
                            hold.release(() -> { }); // the frame releases once the work returns
                        }
                        return null;
                    });
            case LOCK, READ_LOCK -> locked(attempt, wait);
            case SEVERAL -> {
                Optional<MultiLease> several = redlock.acquireAll(List.of(kind.resource, "ledger"), ttl, wait);
                if (several.isEmpty()) {
                    attempt.fail("not acquired");
                    return;
                }
                MultiLease lease = several.get();
                NemesisHold hold = NemesisHold.granted(history, attempt, fenced, lease.value(),
                        lease.fencingToken(kind.resource), lease::validUntil);
                try {
                    work(hold, ttl);
                } finally {
                    hold.release(lease::release);
                }
            }
        }
    }

    private Optional<Lease> lease(Duration wait) {
        return switch (kind) {
            case WRITER -> redlock.readWriteLock(kind.resource).acquireWrite(ttl, wait);
            case READER -> redlock.readWriteLock(kind.resource).acquireRead(ttl, wait);
            case PERMIT -> redlock.semaphore(kind.resource, NemesisLog.PERMITS).acquire(ttl, wait);
            default -> redlock.acquire(kind.resource, ttl, wait);
        };
    }

    private void leased(History.Call attempt, Optional<Lease> acquired) {
        if (acquired.isEmpty()) {
            attempt.fail("not acquired");
            return;
        }
        Lease lease = acquired.get();
        NemesisHold hold = NemesisHold.granted(history, attempt, fenced, lease.value(),
                kind == Kind.UNFENCED ? -1 : lease.fencingToken(), lease::validUntil);
        try {
            work(hold, ttl);
        } finally {
            hold.release(lease::release);
        }
    }

    private void locked(History.Call attempt, Duration wait) {
        boolean locked;
        try {
            locked = lock.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (!locked) {
            attempt.fail("not acquired");
            return;
        }
        Lease lease = lock.currentLease().orElseThrow();
        NemesisHold hold = NemesisHold.granted(history, attempt, fenced, lease.value(), lease.fencingToken(),
                lease::validUntil);
        try {
            work(hold, ttl.multipliedBy(2));
        } finally {
            hold.release(lock::unlock);
        }
    }

    /**
     * What a holder does, for up to about {@code longest}: writers read, work and write their resource's counter
     * fenced; the others hold. One hold in ten works past the whole TTL.
     */
    private void work(NemesisHold hold, Duration longest) {
        Duration work = random.nextInt(10) == 0 ? longest.multipliedBy(100 + random.nextInt(50)).dividedBy(100)
                : longest.multipliedBy(random.nextInt(40)).dividedBy(100);
        if (kind == Kind.UNFENCED || kind == Kind.READER || kind == Kind.READ_LOCK || kind == Kind.PERMIT) {
            pause(work);
        } else {
            hold.readModifyWrite(kind.resource, work);
        }
    }

    /** Sleeps {@code duration}; an interrupt (a kept lease's loss) ends the work. */
    static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("work interrupted", e);
        }
    }
}
