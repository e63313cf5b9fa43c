package io.redlock;

/**
 * Told when one lease is lost before it was released ({@link Lease#onLost}): the holder can no longer assume it is
 * alone; {@link RedlockObserver#leaseLost} hears of every lease. Called once per lease,
 * on a library thread: return quickly and do not block. Exceptions thrown here are logged and ignored.
 */
@FunctionalInterface
public interface LeaseListener {

    void onLost(Lease lease, LossReason reason);
}
