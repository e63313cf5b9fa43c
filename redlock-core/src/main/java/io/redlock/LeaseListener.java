package io.redlock;

/**
 * Told when a lease is lost before it was released: the holder can no longer assume it is alone. Called once per lease,
 * on a library thread: return quickly and do not block. Exceptions thrown here are logged and ignored.
 */
@FunctionalInterface
public interface LeaseListener {

    void onLost(Lease lease, LossReason reason);
}
