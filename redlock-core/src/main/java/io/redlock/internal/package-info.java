/**
 * The implementation behind {@link io.redlock.Redlock}; not exported, not an API (the module exports
 * {@code io.redlock}, {@code io.redlock.fencing} and {@code io.redlock.reactive}, and not this package).
 *
 * <p>The layers below it, each a package that uses only those under it: {@link io.redlock.internal.protocol} (the
 * scripts, their arguments, the keys of each lock kind), {@link io.redlock.internal.node} (the nodes: connections,
 * batching, the one fan-out and its tally) and {@link io.redlock.internal.time} (deadlines, the scheduler, the timer
 * wheel); {@code InternalLayersTest} holds them to that.
 *
 * <p>{@code Engine} is a thin owner: it builds {@code Parts} once — what every part shares: the configuration, the
 * seams tests inject ({@code Seams}: the {@code Scheduler}, the random source, the {@code FaultHooks}), the closed
 * state, {@code Events}, the node set, the timer wheel, the script settings, {@code PendingWork}, {@code Releases},
 * {@code QueueUpkeep}, the {@code ReleaseNotifier}, {@code QuorumHealth} and {@code LockValues} — hands it to the
 * parts that take the calls, and closes them in order. No part is handed the engine:
 * <ul>
 *   <li>acquisition: {@code Acquisitions} checks a call and picks the keys of its kind; its {@code AcquireLoop}
 *       (retries paced by {@code Backoff}, the waiter queue, wake-on-release) runs {@code Acquisition}s (one round,
 *       SPEC R3–R5, fencing steps 1–4); {@code Validity} does the validity arithmetic on the ticker;</li>
 *   <li>leases: {@code Leases} makes them and is what they ask of the client ({@code LeaseOps}); a lease's
 *       {@code Watchdog} drives {@code Extension} (compare-and-PEXPIRE), paced by {@code ExtensionPacing}, and tells
 *       the holder of a loss through its {@code LossNotice}; {@code KeptAlive} holds the leases kept alive;</li>
 *   <li>{@code ByValue}: extend and release of a lease acquired elsewhere, known by its value;</li>
 *   <li>{@code Releases}: compare-and-delete, repeated per node until it lands ({@code NodeDelete});</li>
 *   <li>{@code Reports}: inspect, status and ping.</li>
 * </ul>
 * {@code LockRunner} is {@code withLock}; {@code RedlockLockImpl} is the {@code Lock} adapter.
 *
 * <p>Called by {@code io.redlock}, and by {@code io.redlock.fencing} ({@code FencedRedis} runs its script through
 * {@code node.Script} and waits through {@code Blocking}). Replies are handled on Lettuce's I/O threads; timers (retries,
 * watchdog rounds, repeated deletes) run on the client's one {@code redlock-scheduler} thread, and so does the
 * deadline of a round started off the I/O thread (one started on it keeps its deadline on that event loop); the
 * blocking API waits on the caller's thread ({@code Blocking}); listeners and the observer are told on the thread
 * that saw the event.
 */
package io.redlock.internal;
