package io.redlock.internal;

import io.redlock.Inspection;
import io.redlock.Lease;
import io.redlock.LeaseWork;
import io.redlock.LockOptions;
import io.redlock.LockTarget;
import io.redlock.LossReason;
import io.redlock.PingResult;
import io.redlock.RedlockConfig;
import io.redlock.RedlockLock;
import io.redlock.RedlockObserver;
import io.redlock.RedlockReadWriteLock;
import io.redlock.RedlockSemaphore;
import io.redlock.ReleaseResult;
import io.redlock.ResourceStatus;
import io.redlock.internal.acquire.Acquisitions;
import io.redlock.internal.lease.Extension;
import io.redlock.internal.lease.ForeignLeases;
import io.redlock.internal.lease.KeptAlive;
import io.redlock.internal.lease.Leases;
import io.redlock.internal.locks.LockPlan;
import io.redlock.internal.locks.LockRunner;
import io.redlock.internal.locks.RedlockLockImpl;
import io.redlock.internal.locks.RedlockReadWriteLockImpl;
import io.redlock.internal.locks.RedlockSemaphoreImpl;
import io.redlock.internal.parts.ConfigCheck;
import io.redlock.internal.parts.Injected;
import io.redlock.internal.parts.Parts;
import io.redlock.internal.report.Reports;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The Redlock algorithm (SPEC R1–R9) over the nodes of one configuration, as a thin owner: it builds the
 * {@link Parts} every part shares once, and the parts that take the calls — {@link Acquisitions}, {@link Leases},
 * {@link ForeignLeases}, {@link Reports}, {@link LockRunner} and the lock kinds — each of which checks its own calls;
 * it hands each call to its part (the API takes acquire calls to {@link Acquisitions} itself) and closes everything in
 * order.
 */
public final class Engine implements AutoCloseable {

    /** How long {@link #close()} waits for kept-alive leases' releases and other deletes to land. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(2);

    private final Parts parts;
    private final KeptAlive keptAlive;
    private final Acquisitions acquisitions;
    private final ForeignLeases foreignLeases;
    private final Reports reports;
    private final LockRunner runner;

    public Engine(RedlockConfig config, Injected injected) {
        this.parts = Parts.of(config, injected);
        Extension extension = new Extension(parts);
        this.keptAlive = new KeptAlive(parts.events());
        Leases leases = new Leases(parts, extension, keptAlive);
        this.acquisitions = new Acquisitions(parts, leases);
        this.foreignLeases = new ForeignLeases(parts, leases, extension);
        this.reports = new Reports(parts);
        this.runner = new LockRunner(parts, acquisitions);
    }

    /** The acquire calls of every kind of lock: the API calls them directly. */
    public Acquisitions acquisitions() {
        return acquisitions;
    }

    /** Extends a lease acquired elsewhere, known by its value; the renewed handle if a majority confirmed. */
    public CompletableFuture<Optional<Lease>> extendValue(String resource, String value, Duration ttl) {
        return foreignLeases.extend(resource, value, ttl);
    }

    /** Releases a lease acquired elsewhere, known by its value: how many nodes held it, which did not answer. */
    public CompletableFuture<ReleaseResult> releaseValue(String resource, String value) {
        return foreignLeases.release(resource, value);
    }

    /** {@code withLock}: see {@link LockRunner}. */
    public <T> T withLock(LockTarget target, LockOptions options, LeaseWork<T> work) {
        return runner.withLock(target, LockPlan.of(options, parts.config()), work);
    }

    /** {@code withLockAsync}: see {@link LockRunner}. */
    public <T> CompletionStage<T> withLockAsync(LockTarget target, LockOptions options,
            LeaseWork<? extends CompletionStage<T>> work) {
        return runner.withLockAsync(target, LockPlan.of(options, parts.config()), work);
    }

    /** A {@link RedlockLock} on {@code resource}. */
    public RedlockLock lock(String resource, LockOptions options) {
        return new RedlockLockImpl(parts, acquisitions, resource, LockPlan.of(options, parts.config()));
    }

    /** A {@link RedlockSemaphore} of {@code permits} on {@code resource}. */
    public RedlockSemaphore semaphore(String resource, int permits) {
        ConfigCheck.resource(resource);
        ConfigCheck.permits(permits);
        return new RedlockSemaphoreImpl(acquisitions, reports, resource, permits);
    }

    /** A {@link RedlockReadWriteLock} on {@code resource}. */
    public RedlockReadWriteLock readWriteLock(String resource, LockOptions options) {
        return new RedlockReadWriteLockImpl(parts, acquisitions, resource, LockPlan.of(options, parts.config()));
    }

    /** Every node's settings. */
    public CompletableFuture<Inspection> inspect() {
        return reports.inspect();
    }

    /** What every node holds for {@code resource}. */
    public CompletableFuture<ResourceStatus> status(String resource) {
        return reports.status(resource);
    }

    /** PING on every node at once, each awaited for at most the per-node timeout. */
    public CompletableFuture<List<PingResult>> ping() {
        return reports.ping();
    }

    /** How many auto-extended leases are held right now. */
    public int activeLeases() {
        return keptAlive.size();
    }

    /** See {@link io.redlock.Redlock#addObserver}. */
    public void addObserver(RedlockObserver observer) {
        parts.events().add(observer);
    }

    /**
     * Refuses new work, ends every kept-alive lease (lost with {@link LossReason#CLOSED}: listeners told, holder
     * interrupted) and releases it on every node, lets pending deletes and queue leaves land for at most
     * {@link #CLOSE_WAIT}, then closes connections and threads. Leases without a watchdog are left to expire (the
     * {@code redlock acquire} command hands its lease to a later process this way). Idempotent.
     */
    @Override
    public void close() {
        if (!parts.lifecycle().close()) {
            return;
        }
        acquisitions.close();
        keptAlive.endAll(Thread.currentThread());
        parts.releases().stop(CLOSE_WAIT);
        parts.notifier().close();
        parts.nodes().close();
    }
}
