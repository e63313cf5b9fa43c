package io.redlock.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the method under a Redlock lock ({@link RedlockTemplate#withLock}): waits up to {@link #maxWait()} for it, extends
 * the lease in the background while the method runs (for at most {@link #maxHold()}), releases it when the method
 * returns or throws. The lease, with its fencing token, is {@link Leases#current()} inside the method.
 *
 * <pre>{@code
 * @Locked(resource = "'orders:' + #order.id", ttl = "30s", maxWait = "5s")
 * public void ship(Order order) {
 *     storage.save(order, Leases.current().orElseThrow().fencingToken());
 * }
 * }</pre>
 *
 * <ul>
 *   <li>Not acquired within the wait: {@link io.redlock.LockNotAcquiredException}, or with {@code onBusy = SKIP} the
 *       method is not run and returns {@code null}, {@code Optional.empty()} or an empty collection. Not acquired
 *       because too few nodes answered (an outage) skips too, with a rate-limited WARN, unless
 *       {@code onUnavailable = FAIL}.</li>
 *   <li>Lease lost while the method ran (extension refused, validity ran out, {@code maxHold} reached): the thread is
 *       interrupted and {@link io.redlock.LeaseLostException} is thrown after the method returns.</li>
 *   <li>Exceptions of the method pass through unchanged.</li>
 * </ul>
 *
 * Works on beans called through their Spring proxy (not on calls from the same object). A method returning a
 * {@code CompletionStage} / {@code CompletableFuture}, a Reactor {@code Mono} or {@code Flux}, or a
 * {@code Publisher} holds the lock until its result completes or terminates (kept alive meanwhile), and a cancelled
 * {@code Mono} or {@code Flux} releases it; inside a reactive result the lease is in the Reactor context under
 * {@code Lease.class}, inside a stage's synchronous part {@link Leases#current()}. A plain {@code Future} or a Kotlin
 * {@code Flow} is refused at startup. A nested blocking call on the same resource from the same thread runs under the
 * outer lease.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Locked {

    /**
     * The resource to lock, a SpEL expression over the method's arguments by name ({@code #order}), {@code #p0} /
     * {@code #a0}, the root object ({@code method}, {@code args}, {@code target}) and beans ({@code @name}). A fixed
     * name needs quotes: {@code "'nightly-report'"}.
     */
    String resource();

    /** Lease time of the acquisition and each extension, e.g. {@code "30s"}; empty: {@code redlock.default-ttl}. */
    String ttl() default "";

    /**
     * How long to wait for the lock, e.g. {@code "5s"}, {@code "0s"} for one try; empty: {@code redlock.default-wait}.
     * (Not named {@code wait}: an annotation element cannot share a name with {@code Object.wait()}.)
     */
    String maxWait() default "";

    /** Stop extending after this long (SPEC R8), e.g. {@code "10m"}; empty: {@code redlock.default-max-hold}. */
    String maxHold() default "";

    /**
     * The lock stays taken at least this long after it was acquired, even when the method returns sooner, e.g.
     * {@code "30s"} for a {@code @Scheduled} job on machines whose clocks differ a little (ShedLock's semantics): the
     * lease is then re-expired to the time left instead of released ({@link io.redlock.Lease#releaseAfter}). Empty or
     * zero: released when the method returns. At most {@link #maxHold()}.
     */
    String lockAtLeastFor() default "";

    /** What to do when the lock is not acquired within the wait. */
    OnBusy onBusy() default OnBusy.FAIL;

    /**
     * With {@code onBusy = SKIP}: what to do when the lock was not acquired because too few nodes answered (an
     * outage): skip with a rate-limited WARN (the default), or throw.
     */
    OnUnavailable onUnavailable() default OnUnavailable.SKIP;
}
