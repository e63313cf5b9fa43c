/**
 * The implementation behind {@link io.redlock.Redlock}; not exported, not an API (the module exports only
 * {@code io.redlock} and {@code io.redlock.fencing}).
 *
 * <p>{@code Engine} owns the node clients ({@code NodeClient}: one multiplexed Lettuce connection per node), the
 * scheduler and the rounds: an acquisition ({@code AcquireLoop}, {@code Acquisition}) sends one script to every node
 * at once ({@code Scripts}, {@code Round}) and {@code QuorumTally} decides it; {@code Validity} does the validity
 * arithmetic on the injected ticker. A lease ({@code RedlockLease}) is extended by its {@code Watchdog} and released
 * by compare-and-delete, repeated per node until it lands ({@code NodeDelete}). {@code LockRunner} is
 * {@code withLock}; {@code RedlockLockImpl} is the {@code Lock} adapter. {@code Seams} holds what tests inject: the
 * {@code Scheduler}, the random source and the fault hooks.
 *
 * <p>Called only by {@code io.redlock}. Replies are handled on Lettuce's I/O threads; timers (retries, watchdog
 * rounds, repeated deletes) run on the one {@code redlock-scheduler} thread; the blocking API waits on the caller's
 * thread ({@code Blocking}).
 */
package io.redlock.internal;
