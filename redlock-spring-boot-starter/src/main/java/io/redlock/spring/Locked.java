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
 * returns or throws. The lease, with its fencing token, is {@link Leases#current()} inside the method. The lock is the
 * {@link #resource()}'s exclusive lock, its read or write lock ({@link #mode()}), a permit of its semaphore
 * ({@link #permits()}), or the locks of several {@link #resources()} at once; contradicting attributes fail at start-up
 * ({@link LockedAnnotationException}).
 *
 * <pre>{@code
 * @Locked(resource = "'orders:' + #order.id", ttl = "30s", maxWait = "5s")
 * public void ship(Order order) {
 *     storage.save(order, Leases.current().orElseThrow().fencingToken());
 * }
 *
 * @Locked(resources = {"'account:' + #from", "'account:' + #to"})
 * public void transfer(String from, String to, long cents) { ... }
 *
 * @Locked(resource = "'catalog'", mode = LockMode.READ)
 * public Catalog catalog() { ... }
 *
 * @Locked(resource = "'exports'", permits = 3)
 * public void export(Report report) { ... }
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
 * {@code Flow} is refused at startup. A nested blocking call for the same lock (the same resources and mode) from the
 * same thread runs under the outer lease; a nested call for another lock of the same resource waits like any other
 * caller (so do not nest a read inside a write of one resource).
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Locked {

    /**
     * The resource to lock, a SpEL expression over the method's arguments by name ({@code #order}), {@code #p0} /
     * {@code #a0}, the root object ({@code method}, {@code args}, {@code target}) and beans ({@code @name}). A fixed
     * name needs quotes: {@code "'nightly-report'"}. Set this or {@link #resources()}, not both.
     */
    String resource() default "";

    /**
     * Several resources to lock at once, all or none ({@link io.redlock.LockTarget#all}), each an expression like
     * {@link #resource()}'s: {@code resources = {"'account:' + #from", "'account:' + #to"}}. The lease is one for all
     * of them, its fencing token above every earlier token of each. Two entries naming the same resource in a call
     * fail that call ({@link io.redlock.RedlockConfigException}, nothing locked). Set this or {@link #resource()}, not
     * both; {@link #mode()} stays {@code EXCLUSIVE}.
     */
    String[] resources() default {};

    /**
     * Which lock of the resource to hold: its exclusive lock (the default), or its read lock (shared with other
     * readers) or write lock. {@code READ} and {@code WRITE} take one {@link #resource()}, not {@link #resources()}.
     */
    LockMode mode() default LockMode.EXCLUSIVE;

    /**
     * With a value of 1 or more, hold one permit of the {@link #resource()}'s semaphore of that many permits
     * ({@link io.redlock.RedlockSemaphore}): at most that many calls, in every process, run at once. Every user of one
     * resource must give the same number. Takes one {@link #resource()} in {@code EXCLUSIVE} mode; 0 (the default):
     * no semaphore.
     */
    int permits() default 0;

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
