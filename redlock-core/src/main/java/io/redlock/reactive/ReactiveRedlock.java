package io.redlock.reactive;

import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.LockOptions;
import io.redlock.LockTarget;
import io.redlock.Redlock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link Redlock} for Reactor. Acquisitions are {@code Mono<Lease>}s, empty when the lock was not acquired, lazy
 * (nothing happens before subscription) and cancellable (a lease won after a cancel is released).
 * {@link #withLock} runs a publisher under the lock: the lease is kept alive while it runs (the watchdog of
 * {@code withLockAsync}) and released when it completes, fails or is cancelled; a lease lost meanwhile ends the flux
 * with {@link LeaseLostException}.
 *
 * <pre>{@code
 * ReactiveRedlock locks = ReactiveRedlock.of(redlock);
 * Flux<Row> rows = locks.withLock("nightly-report", LockOptions.defaults(),
 *         lease -> reports.build(lease.fencingToken()));
 * }</pre>
 */
public final class ReactiveRedlock {

    private final Redlock redlock;

    private ReactiveRedlock(Redlock redlock) {
        this.redlock = redlock;
    }

    public static ReactiveRedlock of(Redlock redlock) {
        return new ReactiveRedlock(Objects.requireNonNull(redlock, "redlock"));
    }

    /** One acquisition round ({@link Redlock#tryAcquireAsync}); empty if not acquired. */
    public Mono<Lease> tryAcquire(String resource, Duration ttl) {
        return Mono.defer(() -> Mono.fromCompletionStage(redlock.tryAcquireAsync(resource, ttl)))
                .flatMap(Mono::justOrEmpty);
    }

    /** Rounds until acquired or {@code maxWait} is spent ({@link Redlock#acquireAsync}); empty if not acquired. */
    public Mono<Lease> acquire(String resource, Duration ttl, Duration maxWait) {
        return Mono.defer(() -> Mono.fromCompletionStage(redlock.acquireAsync(resource, ttl, maxWait)))
                .flatMap(Mono::justOrEmpty);
    }

    /**
     * Runs {@code work}'s publisher under the lock ({@link Redlock#withLockAsync} with {@code options}): subscribes to
     * it once the lock is held, keeps the lease alive while it runs, releases it (or, with a minimum hold time, keeps
     * the lock until then) when the publisher completes, fails or is cancelled. Not acquired within the wait:
     * {@link io.redlock.LockNotAcquiredException}; the lease lost meanwhile: {@link LeaseLostException}.
     */
    public <T> Flux<T> withLock(String resource, LockOptions options, Function<Lease, Publisher<T>> work) {
        return withLock(LockTarget.of(resource), options, work);
    }

    /** {@link #withLock(String, LockOptions, Function)} for any kind of lock (see {@link LockTarget}). */
    public <T> Flux<T> withLock(LockTarget target, LockOptions options, Function<Lease, Publisher<T>> work) {
        Objects.requireNonNull(work, "work");
        return Flux.usingWhen(Mono.defer(() -> Held.start(redlock, target, options)),
                held -> held.run(work), Held::end, (held, error) -> held.end(), Held::end);
    }

    /** One lock held for a publisher: the lease, and what ends {@code withLockAsync}'s work. */
    private static final class Held {

        private final CompletableFuture<Lease> granted = new CompletableFuture<>();
        private final CompletableFuture<Void> done = new CompletableFuture<>();
        private volatile CompletableFuture<Void> released;

        static Mono<Held> start(Redlock redlock, LockTarget target, LockOptions options) {
            Held held = new Held();
            held.released = redlock.<Void>withLockAsync(target, options, lease -> {
                held.granted.complete(lease);
                return held.done;
            }).toCompletableFuture();
            held.released.whenComplete((v, failure) -> {
                if (failure != null) {
                    held.granted.completeExceptionally(failure); // not acquired: the flux fails with why
                }
            });
            return Mono.fromFuture(held.granted, true).thenReturn(held)
                    .doOnCancel(held::end); // cancelled while acquiring: a lease won later is released at once
        }

        <T> Flux<T> run(Function<Lease, Publisher<T>> work) {
            Lease lease = granted.join();
            Mono<LeaseLostException> lost = Mono.create(sink -> lease.onLost((l, reason) ->
                    sink.success(new LeaseLostException(lease.resource(), reason, null))));
            // the loss cancels the work, which may fail of that (an interrupted wait) before it is seen cancelled
            return Flux.from(work.apply(lease))
                    .onErrorMap(failure -> lease.lossReason().isPresent(), failure -> new LeaseLostException(
                            lease.resource(), lease.lossReason().orElseThrow(), failure))
                    .takeUntilOther(lost)
                    .concatWith(Mono.defer(() -> lease.lossReason()
                            .map(reason -> Mono.<T>error(new LeaseLostException(lease.resource(), reason, null)))
                            .orElse(Mono.empty())));
        }

        /** Ends the work: the lease is released (or kept for its minimum hold); a loss was reported by the flux. */
        Mono<Void> end() {
            done.complete(null);
            return Mono.fromFuture(released, true).onErrorResume(failure -> Mono.empty());
        }
    }
}
