package io.redlock.spring;

import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.LeaseWork;
import io.redlock.LeaseWorkException;
import io.redlock.LockNotAcquiredException;
import io.redlock.LockOptions;
import io.redlock.LockTarget;
import io.redlock.Redlock;
import io.redlock.reactive.ReactiveRedlock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.util.context.Context;

/**
 * {@link Redlock#withLock(String, LockOptions, LeaseWork) withLock} with the application's default options
 * ({@code redlock.default-ttl}, {@code redlock.default-wait}, {@code redlock.default-max-hold}): takes the lock, runs the
 * work on the calling thread with the lease as {@link Leases#current()}, extends the lease in the background, releases
 * it at the end.
 *
 * <p>Re-entrant on one thread: work that already runs under a valid lease of this template on the same lock (the same
 * resources, the same kind) runs at once under that lease instead of waiting for itself. Any kind of lock
 * ({@link LockTarget}: several resources at once, a read or write lock) is held the same way.
 *
 * <pre>{@code
 * Report report = template.withLock("nightly-report", lease -> build(lease.fencingToken()));
 * }</pre>
 */
public class RedlockTemplate {

    private final Redlock redlock;
    private final LockOptions defaults;

    public RedlockTemplate(Redlock redlock, LockOptions defaults) {
        this.redlock = Objects.requireNonNull(redlock, "redlock");
        this.defaults = Objects.requireNonNull(defaults, "defaults");
    }

    /** The Redlock underneath, for everything else (tryAcquire, lock(), inspect()). */
    public Redlock redlock() {
        return redlock;
    }

    /** The options of {@link #withLock(String, LeaseWork)}. */
    public LockOptions defaultOptions() {
        return defaults;
    }

    /**
     * Runs {@code work} under the lock on {@code resource} with the default options.
     *
     * @throws LockNotAcquiredException if the lock was not acquired within the default wait
     * @throws LeaseLostException       if the lease was lost while the work ran
     * @throws LeaseWorkException       if the work threw a checked exception (unchecked ones pass through)
     */
    public <T> T withLock(String resource, LeaseWork<T> work) {
        return withLock(resource, defaults, work);
    }

    /** Runs {@code work} under the lock on {@code resource} with {@code options}; see {@link #withLock(String, LeaseWork)}. */
    public <T> T withLock(String resource, LockOptions options, LeaseWork<T> work) {
        return withLock(LockTarget.of(resource), options, work);
    }

    /**
     * Runs {@code work} holding {@code target} — several resources at once, a read or a write lock
     * ({@link LockTarget}) — with the default options; see {@link #withLock(String, LeaseWork)}.
     */
    public <T> T withLock(LockTarget target, LeaseWork<T> work) {
        return withLock(target, defaults, work);
    }

    /**
     * Runs {@code work} holding {@code target} with {@code options}; see {@link #withLock(String, LeaseWork)}. Work
     * that already runs under a valid lease of the same target (kind and resources) on this thread runs under it;
     * under one of its resources' leases that was lost, it does not run: {@link LeaseLostException}.
     */
    public <T> T withLock(LockTarget target, LockOptions options, LeaseWork<T> work) {
        Objects.requireNonNull(work, "work");
        Optional<Lease> held = Leases.held(this, target);
        if (held.isPresent()) {
            try {
                return Leases.runWith(this, target, held.get(), work);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new LeaseWorkException(target.name(), e);
            }
        }
        return redlock.withLock(target, options, lease -> Leases.runWith(this, target, lease, work));
    }

    /**
     * Runs asynchronous {@code work} under the lock ({@link Redlock#withLockAsync}): the lease is kept alive until
     * the stage the work returns completes, then released. {@link Leases#current()} is the lease while the work runs
     * on the calling thread (not in its later stages).
     */
    public <T> CompletionStage<T> withLockAsync(String resource, LockOptions options,
            LeaseWork<? extends CompletionStage<T>> work) {
        return withLockAsync(LockTarget.of(resource), options, work);
    }

    /** {@link #withLockAsync(String, LockOptions, LeaseWork)} holding {@code target} ({@link LockTarget}). */
    public <T> CompletionStage<T> withLockAsync(LockTarget target, LockOptions options,
            LeaseWork<? extends CompletionStage<T>> work) {
        Objects.requireNonNull(work, "work");
        return redlock.withLockAsync(target, options, lease -> Leases.runWith(this, target, lease, work));
    }

    /**
     * Runs {@code work}'s publisher under the lock ({@link ReactiveRedlock#withLock}): kept alive while it runs,
     * released on complete, error and cancel. The lease is in the Reactor context under {@code Lease.class}.
     */
    public <T> Flux<T> withLockReactive(String resource, LockOptions options, Function<Lease, Publisher<T>> work) {
        return withLockReactive(LockTarget.of(resource), options, work);
    }

    /** {@link #withLockReactive(String, LockOptions, Function)} holding {@code target} ({@link LockTarget}). */
    public <T> Flux<T> withLockReactive(LockTarget target, LockOptions options, Function<Lease, Publisher<T>> work) {
        Objects.requireNonNull(work, "work");
        return ReactiveRedlock.of(redlock).withLock(target, options,
                lease -> Flux.from(work.apply(lease)).contextWrite(Context.of(Lease.class, lease)));
    }
}
