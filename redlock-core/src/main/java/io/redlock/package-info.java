/**
 * The API of redlock-java: distributed locks over N independent Redis masters (Redlock), with fencing tokens.
 *
 * <p>Start at {@link io.redlock.Redlock#builder()}: one {@link io.redlock.Redlock} per application, thread-safe.
 * {@code tryAcquire}/{@code acquire} return an {@code Optional<}{@link io.redlock.Lease}{@code >} (empty: not
 * acquired); {@code withLock} runs work under a lease it keeps alive; {@link io.redlock.RedlockLock} is the
 * {@link java.util.concurrent.locks.Lock} adapter. Every failure is an unchecked {@link io.redlock.RedlockException}.
 *
 * <p>Called by applications, the {@code redlock} command and the Spring Boot starter. The blocking methods run on the
 * caller's thread and wait on the asynchronous ones; callbacks of the asynchronous methods, listeners and observers
 * may run on Lettuce's I/O threads or the {@code redlock-scheduler} thread, and must not block. The module also
 * exports {@code io.redlock.fencing} (checks at the protected storage) and {@code io.redlock.reactive} (Reactor); the
 * implementation lives in {@code io.redlock.internal}, which is not exported.
 */
package io.redlock;
