package io.redlock.spring;

import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.RedlockLock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;

/**
 * Spring Integration's lock registry over a Redlock quorum: {@link #obtain} gives the {@link RedlockLock} of the key
 * ({@code prefix + key}; one instance per key, reentrant per thread, kept alive by the watchdog while held, its
 * holder interrupted when the lease is lost), so {@code LockRegistryLeaderInitiator} elects a leader over the
 * quorum and aggregators lock their groups. {@link #renewLock} extends the current thread's lease at once;
 * {@link #expireUnusedOlderThan} forgets locks not held and not obtained for that long. Compiled against Spring
 * Integration 6.5 and tested on 7.0 too, where it is a {@code LockRegistry<Lock>}: its locks are
 * {@link RedlockLock}s, not Spring Integration 7's {@code DistributedLock} (a TTL per acquisition), whose type 6.5 lacks.
 *
 * <pre>{@code
 * @Bean
 * LockRegistryLeaderInitiator leader(Redlock redlock, Candidate candidate) {
 *     return new LockRegistryLeaderInitiator(new RedlockLockRegistry(redlock, LockOptions.defaults(), "leader:"),
 *             candidate);
 * }
 * }</pre>
 */
public class RedlockLockRegistry implements ExpirableLockRegistry, RenewableLockRegistry {

    /** A lock of the registry and when it was last obtained (nanoTime). */
    private record Entry(RedlockLock lock, long obtainedAt) {
    }

    private final Redlock redlock;
    private final LockOptions options;
    private final String prefix;
    private final Map<String, Entry> locks = new ConcurrentHashMap<>();

    /** Locks on {@code prefix + key} with {@code options} (TTL, watchdog, maximum hold). */
    public RedlockLockRegistry(Redlock redlock, LockOptions options, String prefix) {
        this.redlock = Objects.requireNonNull(redlock, "redlock");
        this.options = Objects.requireNonNull(options, "options");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
    }

    /** The lock of {@code lockKey} (a {@code String}), the same instance for the same key while it is in use. */
    @Override
    public Lock obtain(Object lockKey) {
        String resource = prefix + key(lockKey);
        return locks.compute(resource, (r, entry) -> new Entry(entry != null ? entry.lock() : redlock.lock(r, options),
                System.nanoTime())).lock();
    }

    /** Forgets the locks not held by anyone in this JVM that were last obtained more than {@code age} ms ago. */
    @Override
    public void expireUnusedOlderThan(long age) {
        long now = System.nanoTime();
        locks.entrySet().removeIf(e -> now - e.getValue().obtainedAt() > age * 1_000_000L
                && !e.getValue().lock().isLocked());
    }

    /**
     * Extends the current thread's lease of {@code lockKey} by the TTL now (the watchdog does so anyway).
     *
     * @throws IllegalStateException if this thread does not hold the lock, or the extension was not confirmed
     */
    @Override
    public void renewLock(Object lockKey) {
        renewLock(lockKey, options.ttl().orElse(redlock.config().defaultTtl()));
    }

    /**
     * Extends the current thread's lease of {@code lockKey} by {@code ttl} now (Spring Integration 7's renewal; the
     * watchdog goes on extending by the TTL of the options).
     *
     * @throws IllegalStateException if this thread does not hold the lock, or the extension was not confirmed
     */
    public void renewLock(Object lockKey, Duration ttl) {
        String resource = prefix + key(lockKey);
        Entry entry = locks.get(resource);
        if (entry == null || !entry.lock().isHeldByCurrentThread()) {
            throw new IllegalStateException("the lock of '" + resource + "' is not held by this thread");
        }
        boolean extended = entry.lock().currentLease().map(lease -> lease.extend(ttl)).orElse(false);
        if (!extended) {
            throw new IllegalStateException("the lock of '" + resource + "' could not be renewed: it was lost");
        }
    }

    private static String key(Object lockKey) {
        if (!(lockKey instanceof String key)) {
            throw new IllegalArgumentException("a RedlockLockRegistry key is a String, was " + lockKey);
        }
        return key;
    }
}
