package io.redlock.internal.parts;

import io.redlock.Lease;
import io.redlock.LeaseListener;
import io.redlock.LossReason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls listeners so that one that throws cannot break the library or the other listeners. */
public final class Listeners {

    private static final Logger log = LoggerFactory.getLogger(Listeners.class);

    private Listeners() {
    }

    public static void notify(LeaseListener listener, Lease lease, LossReason reason) {
        try {
            listener.onLost(lease, reason);
        } catch (RuntimeException e) {
            log.warn("a lease listener failed for '{}': {}", lease.resource(), e.toString(), e);
        }
    }
}
