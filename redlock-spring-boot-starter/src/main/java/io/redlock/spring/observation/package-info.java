/**
 * Micrometer Observations of a {@link io.redlock.Redlock}, so tracing shows lock waits and holds:
 * {@link io.redlock.spring.observation.RedlockObservations} observes each acquisition call
 * ({@code redlock.acquisition}) and each hold of a kept-alive lease ({@code redlock.hold}); the conventions name them
 * and give their key values, low-cardinality only unless the resource is asked for.
 */
package io.redlock.spring.observation;
