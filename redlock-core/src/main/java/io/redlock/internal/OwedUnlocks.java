package io.redlock.internal;

import io.redlock.LeaseLostException;
import io.redlock.LossReason;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The unlocks a {@link RedlockLockImpl} is still owed by threads whose holds were dropped after their lease was lost
 * (the thread locked again): the last owed unlock reports the loss. Guarded by the lock's monitor.
 */
final class OwedUnlocks {

    private final String resource;
    private final Map<Thread, Owed> owed = new WeakHashMap<>();

    OwedUnlocks(String resource) {
        this.resource = resource;
    }

    /** {@code thread} dropped {@code holds} holds of the lost {@code lease}; added to what it owed before. */
    void dropped(Thread thread, int holds, RedlockLease lease) {
        Owed earlier = owed.get(thread);
        owed.put(thread, new Owed(holds + (earlier == null ? 0 : earlier.count), lease));
    }

    /**
     * An unlock by {@code thread}: true if it paid one owed unlock quietly (as nested unlocks of a held lock do),
     * false if it owes none; the last one throws {@link LeaseLostException}.
     */
    boolean pay(Thread thread) {
        Owed debt = owed.get(thread);
        if (debt == null) {
            return false;
        }
        if (--debt.count > 0) {
            return true;
        }
        owed.remove(thread);
        throw new LeaseLostException(resource, debt.lease.lossReason().orElse(LossReason.EXPIRED), null);
    }

    /** Whether no thread owes an unlock. */
    boolean isEmpty() {
        return owed.isEmpty();
    }

    private static final class Owed {
        int count;
        final RedlockLease lease;

        Owed(int count, RedlockLease lease) {
            this.count = count;
            this.lease = lease;
        }
    }
}
