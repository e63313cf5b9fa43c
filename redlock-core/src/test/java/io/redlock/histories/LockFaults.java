package io.redlock.histories;

import static io.redlock.histories.LockWorld.awaitInvalid;
import static io.redlock.histories.LockWorld.invalid;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Lease;
import java.time.Duration;
import java.util.Optional;

/**
 * What happens to a {@link LockWorld} from outside its threads: the rival client, and the faults. The rival gets the
 * lock when the lock's lease is gone (empty-handed only if a node failed meanwhile or the attempt outlasted its
 * validity), and never while it is valid.
 */
final class LockFaults {

    private static final Duration NOTICED_WITHIN = Duration.ofSeconds(10);

    private LockFaults() {
    }

    static boolean rivalAcquires(LockWorld w) {
        if (w.rival != null) {
            return false;
        }
        Lease mine = w.owner == null ? null : w.lease;
        long failuresBefore = w.clients.rivalFailures().count();
        long started = System.nanoTime();
        Optional<Lease> got = w.clients.rival().tryAcquire(w.resource, LockWorld.FIXED_LONG);
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        String what = "rival tryAcquire " + got + ", " + w;
        if (got.isPresent()) {
            assertThat(mine != null && !invalid(mine)).as("%s: granted while the lock's lease is valid", what)
                    .isFalse();
            w.rival = got.get();
            w.granted(w.rival, "rival");
        } else if (mine == null) {
            assertThat(w.clients.rivalFailures().count() > failuresBefore
                    || took.compareTo(LockWorld.FIXED_LONG) >= 0).as("%s: a free lock refused, no node failure", what)
                    .isTrue();
        }
        return true;
    }

    static boolean rivalReleases(LockWorld w) throws InterruptedException {
        if (w.rival == null) {
            return false;
        }
        Lease released = w.rival;
        released.release();
        w.rival = null;
        assertThat(w.bench.valueGone(w.resource, released.value(), NOTICED_WITHIN))
                .as("the rival's key is deleted on every node").isTrue();
        return true;
    }

    static boolean rivalWrites(LockWorld w) {
        if (w.rival == null) {
            return false;
        }
        w.storage.write(w.rival, "rival");
        return true;
    }

    /** The kept lease's key expires on every node: its watchdog's next extension is refused and it is lost. */
    static boolean keptLeaseExpires(LockWorld w) throws InterruptedException {
        if (w.owner == null || w.fixedTtl != null || invalid(w.lease)) {
            return false;
        }
        w.bench.expireEverywhere(w.resource);
        awaitInvalid(w.lease, NOTICED_WITHIN, "the watchdog notices the kept lease's loss");
        assertThat(w.lease.lossReason()).as("the kept lease's loss reason").isPresent();
        return true;
    }

    /** The owner stalls until its fixed lease ran out. */
    static boolean fixedLeaseRunsOut(LockWorld w) throws InterruptedException {
        if (w.owner == null || w.fixedTtl != LockWorld.FIXED_SHORT || invalid(w.lease)) {
            return false;
        }
        awaitInvalid(w.lease, w.fixedTtl.plus(NOTICED_WITHIN), "the fixed lease runs out");
        return true;
    }
}
