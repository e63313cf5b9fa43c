package io.redlock.shedlock;

import io.redlock.Lease;
import io.redlock.RedlockConfig;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * One ShedLock lock on a Redlock lease. {@link AbstractSimpleLock} makes a lock unusable once unlocked or extended
 * ({@link IllegalStateException} after that). {@code lockAtLeastFor} counts on the Redlock's monotonic ticker from
 * the moment the lease was granted or extended.
 */
final class RedlockSimpleLock extends AbstractSimpleLock {

    private final Lease lease;
    private final RedlockConfig config;
    private final Consumer<Lease> forget;
    /** Ticker reading until which an unlock keeps the keys. */
    private final long keepUntil;

    RedlockSimpleLock(LockConfiguration configuration, Lease lease, RedlockConfig config, Consumer<Lease> forget) {
        super(configuration);
        this.lease = lease;
        this.config = config;
        this.forget = forget;
        this.keepUntil = config.ticker().read() + configuration.getLockAtLeastFor().toNanos();
    }

    /**
     * Releases the lease, or, before {@code lockAtLeastFor} has passed, keeps the lock taken for the time left
     * ({@link Lease#releaseAfter(Duration)}: the key re-expired on every node that holds it).
     */
    @Override
    protected void doUnlock() {
        forget.accept(lease);
        long left = keepUntil - config.ticker().read();
        if (left > 0) {
            lease.releaseAfter(Duration.ofNanos(left));
        } else {
            lease.release();
        }
    }

    /**
     * A majority-confirmed extension to the new {@code lockAtMostFor}; empty if the lease could not be extended (then
     * this thread no longer counts it as its current lease).
     */
    @Override
    protected Optional<SimpleLock> doExtend(LockConfiguration extended) {
        if (!lease.isValid() || !lease.extend(extended.getLockAtMostFor())) {
            forget.accept(lease);
            return Optional.empty();
        }
        return Optional.of(new RedlockSimpleLock(extended, lease, config, forget));
    }
}
