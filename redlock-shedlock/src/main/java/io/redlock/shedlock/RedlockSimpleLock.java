package io.redlock.shedlock;

import io.redlock.Lease;
import io.redlock.RedlockConfig;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import net.javacrumbs.shedlock.core.AbstractSimpleLock;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ShedLock lock on a Redlock lease. {@link AbstractSimpleLock} makes a lock unusable once unlocked or extended
 * ({@link IllegalStateException} after that). {@code lockAtLeastFor} counts on the Redlock's monotonic ticker from
 * the moment the lease was granted or extended.
 */
final class RedlockSimpleLock extends AbstractSimpleLock {

    private static final Logger log = LoggerFactory.getLogger(RedlockSimpleLock.class);

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
     * Releases the lease, or, before {@code lockAtLeastFor} has passed, re-expires it on every node that holds it to
     * the time left: the keys then go when that time is up. A time left of two node timeouts or less is not worth a
     * round: the lease is released (up to that much early). If the re-expiry is not confirmed by a majority, the
     * lease is released too, so no key outlives what was asked of it by more than the lease's own TTL.
     */
    @Override
    protected void doUnlock() {
        forget.accept(lease);
        long left = keepUntil - config.ticker().read();
        if (left > config.nodeTimeout().multipliedBy(2).toNanos() && lease.isValid()) {
            if (lease.extend(Duration.ofMillis(TimeUnit.NANOSECONDS.toMillis(left) + 1))) { // whole ms, not early
                return;
            }
            log.warn("{}: lockAtLeastFor could not be kept (no majority confirmed it); released early",
                    lease.resource());
        }
        lease.release();
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
