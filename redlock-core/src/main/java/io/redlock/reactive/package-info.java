/**
 * Reactor on top of a {@link io.redlock.Redlock}: {@link io.redlock.reactive.ReactiveRedlock} — {@code Mono<Lease>}
 * acquisitions (empty when not acquired) and {@code withLock} around a publisher, kept alive while it runs and
 * released on complete, error and cancel. Reactor comes with Lettuce.
 */
package io.redlock.reactive;
