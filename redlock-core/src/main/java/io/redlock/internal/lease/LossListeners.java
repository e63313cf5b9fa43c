package io.redlock.internal.lease;

import io.redlock.Lease;
import io.redlock.LeaseListener;
import io.redlock.LossReason;
import io.redlock.internal.parts.Listeners;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The listeners of one lease's loss, each told at most once; the list is made with the first one. Thread-safe. */
final class LossListeners {

    private volatile List<LeaseListener> listeners;

    void add(LeaseListener listener) {
        List<LeaseListener> registered = listeners;
        if (registered == null) {
            synchronized (this) {
                if (listeners == null) {
                    listeners = new CopyOnWriteArrayList<>();
                }
                registered = listeners;
            }
        }
        registered.add(listener);
    }

    /** Takes {@code listener} out; true if it was in (then it is the caller's to tell). */
    boolean remove(LeaseListener listener) {
        List<LeaseListener> registered = listeners;
        return registered != null && registered.remove(listener);
    }

    /** Tells each listener once that {@code lease} was lost. */
    void tell(Lease lease, LossReason reason) {
        List<LeaseListener> registered = listeners;
        if (registered == null) {
            return;
        }
        for (LeaseListener listener : registered) {
            if (registered.remove(listener)) {
                Listeners.notify(listener, lease, reason);
            }
        }
    }

    /** Forgets every listener: the lease was released. */
    void clear() {
        List<LeaseListener> registered = listeners;
        if (registered != null) {
            registered.clear();
        }
    }
}
