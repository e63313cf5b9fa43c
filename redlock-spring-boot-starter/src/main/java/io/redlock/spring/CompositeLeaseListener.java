package io.redlock.spring;

import io.redlock.Lease;
import io.redlock.LeaseListener;
import io.redlock.LossReason;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Tells several lease listeners; one that throws does not keep the others from being told. */
final class CompositeLeaseListener implements LeaseListener {

    private static final Logger log = LoggerFactory.getLogger(CompositeLeaseListener.class);

    private final List<LeaseListener> listeners;

    CompositeLeaseListener(List<LeaseListener> listeners) {
        this.listeners = List.copyOf(listeners);
    }

    List<LeaseListener> listeners() {
        return listeners;
    }

    @Override
    public void onLost(Lease lease, LossReason reason) {
        for (LeaseListener listener : listeners) {
            try {
                listener.onLost(lease, reason);
            } catch (RuntimeException e) {
                log.warn("LeaseListener {} failed: {}", listener, e.toString());
            }
        }
    }
}
