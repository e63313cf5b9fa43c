package io.redlock.shedlock;

import io.redlock.Lease;
import io.redlock.Redlock;
import java.util.Deque;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * ShedLock's lock provider over a Redlock quorum. A lock is one acquisition round ({@link Redlock#tryAcquire}, no
 * waiting: a job whose lock is taken is skipped, as ShedLock expects) on the resource {@code prefix + name}, with
 * {@code lockAtMostFor} as the TTL and no watchdog: a job that runs longer loses the lock, as with every ShedLock
 * provider, unless it extends it ({@code LockExtender.extendActiveLock}, a majority-confirmed extension here).
 * {@code unlock()} before {@code lockAtLeastFor} has passed keeps the keys until then (the lease is re-expired by
 * compare-and-set on every node that holds it) instead of deleting them. The lock's fencing token is
 * {@link #currentLease()}{@code .fencingToken()} inside the job.
 *
 * <pre>{@code
 * @Bean
 * LockProvider lockProvider(Redlock redlock) {
 *     return new RedlockLockProvider(redlock);
 * }
 * }</pre>
 *
 * <p>Thread-safe; make one per {@link Redlock}. Closing the {@link Redlock} is the application's business.
 */
public final class RedlockLockProvider implements ExtensibleLockProvider {

    /**
     * The leases of the locks taken on this thread and not yet unlocked, innermost first (concurrent: a lock may be
     * unlocked on another thread than the one that took it).
     */
    private static final ThreadLocal<Deque<Lease>> CURRENT = ThreadLocal.withInitial(ConcurrentLinkedDeque::new);

    private final Redlock redlock;
    private final String prefix;

    /** Locks named as the job: the resource is the lock's name (after the Redlock's own key prefix). */
    public RedlockLockProvider(Redlock redlock) {
        this(redlock, "");
    }

    /** Locks on the resource {@code prefix + name}, e.g. {@code "shedlock:"}. */
    public RedlockLockProvider(Redlock redlock, String prefix) {
        this.redlock = Objects.requireNonNull(redlock, "redlock");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
    }

    /**
     * One acquisition round: the lock if a majority granted it, empty if it is taken (or no majority answered).
     *
     * @throws io.redlock.RedlockConfigException if {@code lockAtMostFor} leaves no validity after the Redlock's
     *     clock-drift allowance and one per-node timeout
     */
    @Override
    public Optional<SimpleLock> lock(LockConfiguration configuration) {
        return redlock.tryAcquire(prefix + configuration.getName(), configuration.getLockAtMostFor())
                .map(lease -> {
                    Deque<Lease> taken = CURRENT.get();
                    taken.push(lease);
                    return new RedlockSimpleLock(configuration, lease, redlock.config(), taken::remove);
                });
    }

    /**
     * The lease of the innermost lock this thread took through a {@code RedlockLockProvider} and has not unlocked:
     * inside a job run by ShedLock ({@code @SchedulerLock}, {@code LockingTaskExecutor}), the job's lock, whose
     * {@link Lease#fencingToken()} a fenced storage can check.
     */
    public static Optional<Lease> currentLease() {
        return Optional.ofNullable(CURRENT.get().peek());
    }
}
