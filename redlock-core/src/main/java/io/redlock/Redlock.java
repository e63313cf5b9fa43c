package io.redlock;

import io.redlock.internal.Engine;
import io.redlock.internal.acquire.Acquisitions;
import io.redlock.internal.locks.Blocking;
import io.redlock.internal.parts.Injected;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Distributed locks over N independent Redis masters, following the Redlock algorithm (SPEC R1–R9); with one node it
 * is the single-instance lock (S1–S4) with the same API.
 *
 * <p>Not getting a lock is a normal result, {@code Optional.empty()}. A lease is valid until its
 * {@link Lease#remainingValidity() validity} runs out: the TTL minus the time the acquisition took minus the drift
 * allowance. Use the lease only while {@link Lease#isValid()}.
 *
 * <pre>{@code
 * try (Redlock redlock = Redlock.builder().nodes("redis://h1:6379", "redis://h2:6379", "redis://h3:6379").build()) {
 *     Optional<Lease> lease = redlock.acquire("orders:42", Duration.ofSeconds(30), Duration.ofSeconds(5));
 *     ...
 * }
 * }</pre>
 *
 * <p>Thread-safe; create one per application. It owns one multiplexed Lettuce connection per node and closes them in
 * {@link #close()}. Asynchronous methods are the primitive; the blocking ones wait on them. Callbacks attached to the
 * returned stages may run on Lettuce I/O threads: do not block in them.
 */
public final class Redlock implements AutoCloseable {

    private final RedlockConfig config;
    private final Engine engine;
    /** The acquire calls, taken straight from the API (not through {@link #engine}): a short path to the wire. */
    private final Acquisitions acquisitions;

    Redlock(RedlockConfig config, Injected injected) {
        this.config = config;
        this.engine = new Engine(config, injected);
        this.acquisitions = engine.acquisitions();
    }

    /** A builder with the defaults of {@link RedlockConfig}. */
    public static RedlockBuilder builder() {
        return new RedlockBuilder();
    }

    /** Creates a Redlock from a validated configuration and starts connecting to its nodes. */
    public static Redlock create(RedlockConfig config) {
        return new Redlock(Objects.requireNonNull(config, "config"), Injected.defaults());
    }

    public RedlockConfig config() {
        return config;
    }

    /** One acquisition round with the default TTL; see {@link #tryAcquire(String, Duration)}. */
    public Optional<Lease> tryAcquire(String resource) {
        return tryAcquire(resource, config.defaultTtl());
    }

    /**
     * One acquisition round: {@code SET key value NX PX ttl} on every node at once. Returns the lease if a majority
     * granted it and validity remains; otherwise releases on all nodes and returns empty.
     *
     * @throws RedlockConfigException      if the resource or TTL is invalid
     * @throws QuorumUnreachableException  if a majority of nodes fails with errors retrying cannot fix
     */
    public Optional<Lease> tryAcquire(String resource, Duration ttl) {
        return Blocking.await(tryAcquireAsync(resource, ttl), "tryAcquire " + resource);
    }

    /** Acquisition rounds with the default TTL until {@code maxWait} is spent; see {@link #acquire(String, Duration, Duration)}. */
    public Optional<Lease> acquire(String resource, Duration maxWait) {
        return acquire(resource, config.defaultTtl(), maxWait);
    }

    /**
     * Acquisition rounds separated by random delays from the {@link RetryPolicy} until one succeeds or
     * {@code maxWait} is spent. No round starts after the wait has run out.
     */
    public Optional<Lease> acquire(String resource, Duration ttl, Duration maxWait) {
        return Blocking.await(acquireAsync(resource, ttl, maxWait), "acquire " + resource);
    }

    /** Asynchronous {@link #tryAcquire(String, Duration)}. */
    public CompletionStage<Optional<Lease>> tryAcquireAsync(String resource, Duration ttl) {
        return acquisitions.acquire(resource, ttl, Duration.ZERO);
    }

    /** Asynchronous {@link #acquire(String, Duration, Duration)}. */
    public CompletionStage<Optional<Lease>> acquireAsync(String resource, Duration ttl, Duration maxWait) {
        return acquisitions.acquire(resource, ttl, maxWait);
    }

    /**
     * One acquisition round of several resources at once: on every node one script takes the lock of every resource
     * if all of them are free there, or none. Returns the lease if a majority granted it and validity remains;
     * otherwise releases on all nodes and returns empty. Each lock key is the resource's own key, so a plain lock of
     * any of them (ours or another Redlock client's) conflicts with it, and whatever order callers list resources in,
     * none holds some of them while waiting for the others: no deadlock.
     *
     * @param resources at least one, at most {@link RedlockConfig#MAX_RESOURCES_AT_ONCE}, none twice; with a Redis
     *                  Cluster member, their keys must share a hash slot (one hash tag)
     * @throws RedlockConfigException     if the resources or the TTL are invalid (nothing is written to Redis)
     * @throws QuorumUnreachableException if a majority of nodes fails with errors retrying cannot fix
     */
    public Optional<MultiLease> tryAcquireAll(Collection<String> resources, Duration ttl) {
        return Blocking.await(tryAcquireAllAsync(resources, ttl), "tryAcquireAll " + resources);
    }

    /**
     * {@link #tryAcquireAll} in rounds separated by random delays from the {@link RetryPolicy} until one succeeds or
     * {@code maxWait} is spent. A lock of several resources does not queue for them: it takes them when all are free
     * at once on a majority (a plain waiter of one of them may be served first).
     */
    public Optional<MultiLease> acquireAll(Collection<String> resources, Duration ttl, Duration maxWait) {
        return Blocking.await(acquireAllAsync(resources, ttl, maxWait), "acquireAll " + resources);
    }

    /** Asynchronous {@link #tryAcquireAll(Collection, Duration)}. */
    public CompletionStage<Optional<MultiLease>> tryAcquireAllAsync(Collection<String> resources, Duration ttl) {
        return acquisitions.acquireAll(resources, ttl, Duration.ZERO);
    }

    /** Asynchronous {@link #acquireAll(Collection, Duration, Duration)}. */
    public CompletionStage<Optional<MultiLease>> acquireAllAsync(Collection<String> resources, Duration ttl,
            Duration maxWait) {
        return acquisitions.acquireAll(resources, ttl, maxWait);
    }

    /**
     * Runs {@code work} on the calling thread while holding the lock: waits up to {@code options.maxWait()} for it,
     * extends the lease in the background when {@code options.extendWhenRemaining()} of validity is left (for at
     * most {@code options.maxHold()}), releases it when the work ends, and returns the work's result.
     *
     * <p>If the lease is lost while the work runs — an extension refused by a majority, the validity run out before
     * an extension reached a majority, or the maximum hold time reached — the lease turns invalid at once, its
     * {@link Lease#onLost} listeners and the {@link RedlockObserver#leaseLost observers} are told, the working thread
     * is interrupted, and this method throws {@link LeaseLostException} after the work returns, even if the work
     * swallowed the interrupt.
     *
     * @throws LockNotAcquiredException if the lock was not acquired within {@code options.maxWait()}
     * @throws LeaseLostException       if the lease was lost while the work ran
     * @throws LeaseWorkException       if the work threw a checked exception (unchecked ones pass through)
     */
    public <T> T withLock(String resource, LockOptions options, LeaseWork<T> work) {
        return withLock(LockTarget.of(resource), options, work);
    }

    /**
     * {@link #withLock(String, LockOptions, LeaseWork)} for any kind of lock: several resources at once, a read or
     * write lock (see {@link LockTarget}). The work gets the lease of what it holds; for several resources, a lease
     * whose token is theirs ({@link MultiLease#fencingToken}) and whose {@link Lease#resource()} lists them.
     *
     * @throws RedlockConfigException if the target is invalid (see the kind's acquire method; nothing is sent)
     */
    public <T> T withLock(LockTarget target, LockOptions options, LeaseWork<T> work) {
        return engine.withLock(target, options, work);
    }

    /** {@link #withLock(String, LockOptions, LeaseWork)} with the default TTL and wait of this Redlock. */
    public <T> T withLock(String resource, LeaseWork<T> work) {
        return withLock(resource, LockOptions.defaults(), work);
    }

    /**
     * The asynchronous twin of {@link #withLock(String, LockOptions, LeaseWork)} for work that returns a stage: the
     * lease is kept alive until that stage completes, then released. No thread is blocked or interrupted; a loss is
     * reported by completing with {@link LeaseLostException} (and to the lease's listeners at once).
     */
    public <T> CompletionStage<T> withLockAsync(String resource, LockOptions options,
            LeaseWork<? extends CompletionStage<T>> work) {
        return withLockAsync(LockTarget.of(resource), options, work);
    }

    /** {@link #withLockAsync(String, LockOptions, LeaseWork)} for any kind of lock (see {@link LockTarget}). */
    public <T> CompletionStage<T> withLockAsync(LockTarget target, LockOptions options,
            LeaseWork<? extends CompletionStage<T>> work) {
        return engine.withLockAsync(target, options, work);
    }

    /** A {@code Lock} on {@code resource} with the default options (TTL of this Redlock); see {@link RedlockLock}. */
    public RedlockLock lock(String resource) {
        return lock(resource, LockOptions.defaults());
    }

    /** A {@link java.util.concurrent.locks.Lock} on {@code resource}: TTL, watchdog and waiting from {@code options}. */
    public RedlockLock lock(String resource, LockOptions options) {
        return engine.lock(resource, options);
    }

    /** A {@code ReadWriteLock} on {@code resource} with the default options; see {@link RedlockReadWriteLock}. */
    public RedlockReadWriteLock readWriteLock(String resource) {
        return readWriteLock(resource, LockOptions.defaults());
    }

    /** {@link #readWriteLock(String)} with the TTL, watchdog and waiting of {@code options} for both locks. */
    public RedlockReadWriteLock readWriteLock(String resource, LockOptions options) {
        return engine.readWriteLock(resource, options);
    }

    /**
     * A semaphore of {@code permits} permits on {@code resource}: at most that many leases at once, each extended,
     * released and fenced as any lease; see {@link RedlockSemaphore}. Every caller of one resource must give the same
     * number of permits (else {@link LockKindMismatchException}).
     *
     * @throws RedlockConfigException if the resource is blank or {@code permits} is not between 1 and
     *                                {@link RedlockConfig#MAX_PERMITS}
     */
    public RedlockSemaphore semaphore(String resource, int permits) {
        return engine.semaphore(resource, permits);
    }

    /**
     * Extends a lease that was acquired elsewhere — by another process, say a shell script using the
     * {@code redlock} command — and is known only by its resource and value. Returns a handle on it, valid for the
     * new validity, if a majority still held that value and confirmed; empty otherwise. Never re-creates a lock.
     */
    public Optional<Lease> extend(String resource, String value, Duration ttl) {
        return Blocking.await(engine.extendValue(resource, value, ttl), "extend " + resource);
    }

    /**
     * Releases a lease that was acquired elsewhere and is known only by its resource and value (compare-and-delete on
     * every node). Waits for every node, at most the per-node timeout: the result says how many nodes still held it
     * (0 if it had expired or was never this value), and whether a majority answered ({@link
     * ReleaseResult#confirmed()}) or which nodes did not. Deletes that were not confirmed are repeated in the
     * background as for any release.
     *
     * @throws QuorumUnreachableException if too many nodes failed for a majority and none released
     */
    public ReleaseResult release(String resource, String value) {
        return Blocking.await(engine.releaseValue(resource, value), "release " + resource);
    }

    /**
     * Reads what every node holds for {@code resource} — the holder's value and remaining TTL, the fencing counter,
     * the waiter queue — and what that adds up to ({@link ResourceStatus#verdict()}). Read-only: it changes nothing
     * on the nodes. Each node is awaited for at most max(1 s, the per-node timeout); nodes that do not answer are
     * reported, not thrown.
     *
     * @throws RedlockConfigException if the resource is invalid
     */
    public ResourceStatus status(String resource) {
        return Blocking.await(engine.status(resource), "status " + resource);
    }

    /** How many leases are being kept alive right now (by {@code withLock}, {@code withLockAsync} or a {@code lock()}). */
    public int activeLeases() {
        return engine.activeLeases();
    }

    /**
     * Asks every node for the settings that decide the guarantees: role, cluster mode, eviction policy, persistence,
     * and whether two entries are the same server. See {@link Inspection#tokenGuarantee()} and
     * {@link Inspection#warnings()}. Unreachable nodes are reported, not thrown.
     */
    public Inspection inspect() {
        return Blocking.await(inspectAsync(), "inspect");
    }

    /** Asynchronous {@link #inspect()}. */
    public CompletionStage<Inspection> inspectAsync() {
        return engine.inspect();
    }

    /**
     * From now on {@code observer} is told of every acquisition, hold, extension, node failure and lease lost: the one
     * way to observe a client, whoever built it (an application's metrics, a framework's). Observers are told in the
     * order they were added.
     */
    public void addObserver(RedlockObserver observer) {
        engine.addObserver(observer);
    }

    /**
     * Sends {@code PING} to every node at once and waits at most the per-node timeout for each: per node, in order,
     * whether it answered in time and how fast. For health checks: while a majority ({@link RedlockConfig#quorum()})
     * answers, acquisitions can succeed. Nodes that do not answer are reported, not thrown.
     */
    public List<PingResult> ping() {
        return Blocking.await(engine.ping(), "ping");
    }

    /**
     * Refuses new calls ({@link RedlockClosedException}), ends every lease a watchdog keeps alive ({@code withLock},
     * {@code withLockAsync}, a {@link RedlockLock}) as a loss with {@link LossReason#CLOSED} — listeners told, the
     * holder interrupted — and releases it on every node, waits at most 2 s for those deletes and the other pending
     * ones to land, then closes the connections and threads this instance created. Leases without a watchdog outlive
     * the close and expire by their TTL. Idempotent.
     */
    @Override
    public void close() {
        engine.close();
    }
}
