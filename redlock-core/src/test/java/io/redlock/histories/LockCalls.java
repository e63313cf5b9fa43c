package io.redlock.histories;

import static io.redlock.histories.LockWorld.invalid;
import static io.redlock.histories.LockWorld.reasonOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.RedlockLock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The calls a thread makes on a {@link RedlockLock}, each checked against the model of {@link LockWorld}. The rules
 * (the lock's guarantees, as properties):
 * <ul>
 *   <li>a thread that holds the lock counts a nested call while its lease is valid; after a loss, every nested call
 *       throws {@link LeaseLostException} with the loss reason until the thread has unwound, and
 *       {@code currentLease()} stays the lost lease;</li>
 *   <li>an interruptible call made with the interrupt flag set throws {@link InterruptedException} and clears it (a
 *       broken section's {@code LeaseLostException} first); the others keep the flag and ignore it;</li>
 *   <li>a thread that does not hold the lock gets it when it is free (empty-handed only if a node failed meanwhile or
 *       the attempt outlasted the lease's validity), and never while another thread or client holds it;</li>
 *   <li>{@code unlock()} by a thread that does not hold the lock throws {@link IllegalMonitorStateException}; the last
 *       one releases on every node and reports a loss that happened; a nested one is quiet.</li>
 * </ul>
 */
final class LockCalls {

    /** The ways to ask for the lock. */
    enum Kind {
        LOCK(true, false, null),
        LOCK_INTERRUPTIBLY(true, true, null),
        TRY_LOCK(false, false, null),
        TRY_LOCK_TIMED(false, true, null),
        LOCK_FIXED(true, false, LockWorld.FIXED_LONG),
        LOCK_FIXED_SHORT(true, false, LockWorld.FIXED_SHORT),
        TRY_LOCK_FIXED(false, true, LockWorld.FIXED_LONG);

        /** Waits until it gets the lock (only generated where it cannot wait for ever). */
        final boolean blocking;
        final boolean interruptible;
        /** A fixed lease of this TTL, or null: kept alive by the watchdog. */
        final Duration fixedTtl;

        Kind(boolean blocking, boolean interruptible, Duration fixedTtl) {
            this.blocking = blocking;
            this.interruptible = interruptible;
            this.fixedTtl = fixedTtl;
        }

        Callable<Boolean> on(RedlockLock lock) {
            return switch (this) {
                case LOCK -> () -> { lock.lock(); return true; };
                case LOCK_INTERRUPTIBLY -> () -> { lock.lockInterruptibly(); return true; };
                case TRY_LOCK -> lock::tryLock;
                case TRY_LOCK_TIMED -> () -> lock.tryLock(LockWorld.TRY_WAIT.toMillis(), TimeUnit.MILLISECONDS);
                case LOCK_FIXED, LOCK_FIXED_SHORT -> () -> { lock.lock(fixedTtl); return true; };
                case TRY_LOCK_FIXED -> () -> lock.tryLock(LockWorld.TRY_WAIT, fixedTtl);
            };
        }
    }

    private LockCalls() {
    }

    static void acquire(LockWorld w, Actor t, Kind kind, boolean interruptFirst) {
        boolean nested = w.owner == t;
        Lease held = w.lease;
        boolean invalidBefore = nested && invalid(held);
        boolean flagged = w.flagged(t) || interruptFirst;
        long failuresBefore = w.clients.failures().count();
        Actor.Result r = w.call(t, kind.on(w.lock), interruptFirst);
        String what = t.name() + " " + kind + (interruptFirst ? " (interrupted)" : "") + (flagged ? " flagged" : "")
                + " " + r + ", " + w;
        // a kept lease's loss interrupts its holder, at a moment the model does not see
        boolean mayBeFlagged = flagged || nested && w.fixedTtl == null && invalid(held);
        if (nested) {
            if (r.threw(LeaseLostException.class)) {
                assertThat(invalid(held)).as("%s: thrown while the lease is valid", what).isTrue();
                assertThat(((LeaseLostException) r.thrown()).reason()).as(what).isEqualTo(reasonOf(held));
                assertThat(w.currentLeaseOn(t)).as("%s: currentLease() after the loss", what).containsSame(held);
                return;
            }
            assertThat(invalidBefore).as("%s: a nested call after the loss must throw LeaseLostException", what)
                    .isFalse();
        }
        if (kind.interruptible && (flagged || mayBeFlagged && r.threw(InterruptedException.class))) {
            assertThat(r.threw(InterruptedException.class)).as("%s: an interruptible call, interrupted", what).isTrue();
            assertThat(r.interruptedAfter()).as("%s: the interrupt flag is cleared", what).isFalse();
            return;
        }
        assertThat(r.thrown()).as(what).isNull();
        if (flagged) {
            assertThat(r.interruptedAfter()).as("%s: the interrupt flag is kept", what).isTrue();
        }
        if (nested) {
            assertThat(r.value()).as("%s: a nested call counts", what).isEqualTo(true);
            w.holds++;
            return;
        }
        boolean free = w.owner == null && w.rival == null;
        if (!free) {
            assertThat(r.value()).as("%s: held by another", what).isEqualTo(false);
            return;
        }
        if (Boolean.FALSE.equals(r.value())) {
            Duration took = Duration.ofNanos(r.ended() - r.started());
            assertThat(w.clients.failures().count() > failuresBefore || took.compareTo(validityOf(kind)) >= 0)
                    .as("%s: a free lock refused, with no node failure, in %s", what, took).isTrue();
            return;
        }
        assertThat(r.value()).as(what).isEqualTo(true);
        Lease granted = w.currentLeaseOn(t).orElseThrow(() -> new AssertionError(what + ": no currentLease()"));
        w.owner = t;
        w.holds = 1;
        w.lease = granted;
        w.fixedTtl = kind.fixedTtl;
        w.granted(granted, t.name());
    }

    private static Duration validityOf(Kind kind) {
        return kind.fixedTtl == null ? LockWorld.KEPT_TTL : kind.fixedTtl;
    }

    static void unlock(LockWorld w, Actor t) throws InterruptedException {
        boolean mine = w.owner == t;
        Lease held = w.lease;
        boolean invalidBefore = mine && invalid(held);
        Actor.Result r = w.call(t, () -> {
            w.lock.unlock();
            return null;
        }, false);
        String what = t.name() + " unlock " + r + ", " + w;
        if (!mine) {
            assertThat(r.threw(IllegalMonitorStateException.class)).as(what).isTrue();
            return;
        }
        if (w.holds > 1) {
            assertThat(r.thrown()).as("%s: a nested unlock is quiet", what).isNull();
            w.holds--;
            return;
        }
        w.owner = null;
        w.holds = 0;
        w.lease = null;
        if (r.threw(LeaseLostException.class)) {
            assertThat(invalidBefore || held.lossReason().isPresent() || System.nanoTime() - held.validUntil() >= 0)
                    .as("%s: a loss reported for a lease that was valid", what).isTrue();
        } else {
            assertThat(r.thrown()).as(what).isNull();
            assertThat(invalidBefore).as("%s: the last unlock after a loss must report it", what).isFalse();
        }
        assertThat(w.bench.valueGone(w.resource, held.value(), Duration.ofSeconds(10)))
                .as("%s: the lease's key is deleted on every node", what).isTrue();
    }

    /** {@code currentLease()} and {@code isHeldByCurrentThread()} on {@code t}. */
    static void inspect(LockWorld w, Actor t) {
        boolean mine = w.owner == t;
        boolean invalidBefore = mine && invalid(w.lease);
        Actor.Result r = w.call(t, () -> List.of(w.lock.currentLease(), w.lock.isHeldByCurrentThread()), false);
        boolean validAfter = mine && !invalid(w.lease);
        String what = t.name() + " currentLease, isHeldByCurrentThread " + r + ", " + w;
        assertThat(r.thrown()).as(what).isNull();
        List<?> seen = (List<?>) r.value();
        @SuppressWarnings("unchecked")
        Optional<Object> current = (Optional<Object>) seen.get(0);
        boolean heldSeen = (Boolean) seen.get(1);
        if (!mine) {
            assertThat(current).as(what).isEmpty();
            assertThat(heldSeen).as(what).isFalse();
            return;
        }
        assertThat(current).as(what).containsSame(w.lease);
        if (heldSeen) {
            assertThat(invalidBefore).as("%s: held although the lease was lost", what).isFalse();
        } else {
            assertThat(validAfter).as("%s: not held although the lease is valid", what).isFalse();
        }
    }

    /** The owner writes with {@code currentLease()}'s token (a lost lease's too: the storage must refuse it then). */
    static boolean ownerWrites(LockWorld w) {
        if (w.owner == null) {
            return false;
        }
        Lease current = w.currentLeaseOn(w.owner).orElseThrow();
        w.storage.write(current, w.owner.name());
        return true;
    }

    static void newCondition(LockWorld w, Actor t) {
        Actor.Result r = w.call(t, w.lock::newCondition, false);
        assertThat(r.threw(UnsupportedOperationException.class)).as("%s newCondition %s", t.name(), r).isTrue();
    }
}
