/**
 * The implementation behind {@link io.redlock.Redlock}; not exported, not an API (the module exports
 * {@code io.redlock}, {@code io.redlock.fencing} and {@code io.redlock.reactive}, and not this package).
 *
 * <p>The layers below it, each a package that uses only those under it: {@link io.redlock.internal.protocol} (the
 * scripts, their arguments, the keys of each lock kind), {@link io.redlock.internal.node} (the nodes: connections,
 * batching, the one fan-out and its tally) and {@link io.redlock.internal.time} (deadlines, the scheduler, the timer
 * wheel); {@code InternalLayersTest} holds them to that.
 *
 * <p>{@code Engine} is a thin owner that checks each call and wires the parts, each with one job:
 * <ul>
 *   <li>acquisition: {@code AcquireLoop} (retries paced by {@code Backoff}, the waiter queue, wake-on-release) runs
 *       {@code Acquisition}s (one round, SPEC R3–R5, fencing steps 1–4); {@code Validity} does the validity
 *       arithmetic on the ticker;</li>
 *   <li>{@code Extension} (compare-and-PEXPIRE), driven by a lease's {@code Watchdog}, paced by
 *       {@code ExtensionPacing};</li>
 *   <li>{@code ByValue}: extend and release of a lease acquired elsewhere, known by its value;</li>
 *   <li>{@code Releases}: compare-and-delete, repeated per node until it lands ({@code NodeDelete});</li>
 *   <li>{@code Reports}: inspect, status and ping; {@code QueueUpkeep}: leaving waiter queues;</li>
 *   <li>{@code Events}: observer and listener dispatch.</li>
 * </ul>
 * {@code LockRunner} is {@code withLock};
 * {@code RedlockLockImpl} is the {@code Lock} adapter. {@code Seams} holds what tests inject: the {@code Scheduler},
 * the random source and the fault hooks.
 *
 * <p>Called by {@code io.redlock}, and by {@code io.redlock.fencing} ({@code FencedRedis} runs its script through
 * {@code node.Script} and waits through {@code Blocking}). Replies are handled on Lettuce's I/O threads; timers (retries,
 * watchdog rounds, repeated deletes) run on the engine's one {@code redlock-scheduler} thread, and so does the
 * deadline of a round started off the I/O thread (one started on it keeps its deadline on that event loop); the
 * blocking API waits on the caller's thread ({@code Blocking}); listeners and the observer are told on the thread
 * that saw the event.
 */
package io.redlock.internal;
