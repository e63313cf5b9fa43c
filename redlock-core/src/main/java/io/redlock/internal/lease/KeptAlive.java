package io.redlock.internal.lease;

import io.redlock.RedlockObserver;
import io.redlock.internal.parts.Events;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The leases a watchdog keeps alive, each with the observers' scope of its hold: closing the client ends them.
 * Thread-safe.
 */
public final class KeptAlive {

    private final Events events;
    private final Map<RedlockLease, RedlockObserver.Hold> leases = new ConcurrentHashMap<>();

    public KeptAlive(Events events) {
        this.events = events;
    }

    /** A watchdog starts keeping {@code lease} alive: the observers hear that its hold starts. */
    void add(RedlockLease lease) {
        leases.put(lease, events.holdStarted(lease));
    }

    /**
     * A watchdog stopped keeping {@code lease} alive: returns the observers' scope of its hold, for the watchdog to end
     * once it knows whether the lease was lost.
     */
    RedlockObserver.Hold remove(RedlockLease lease) {
        RedlockObserver.Hold hold = leases.remove(lease);
        return hold == null ? RedlockObserver.Hold.NONE : hold;
    }

    /** How many leases are kept alive right now. */
    public int size() {
        return leases.size();
    }

    /**
     * Ends every kept-alive lease as lost ({@link io.redlock.LossReason#CLOSED}: listeners told, holder interrupted
     * unless it is {@code closer}) and releases it on every node.
     */
    public void endAll(Thread closer) {
        for (RedlockLease lease : List.copyOf(leases.keySet())) {
            Watchdog dog = lease.watchdog();
            if (dog != null) {
                dog.loseOnClose(closer);
            }
            lease.releaseAsync();
        }
    }
}
