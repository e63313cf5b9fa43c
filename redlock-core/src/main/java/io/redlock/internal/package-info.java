/**
 * The implementation behind {@link io.redlock.Redlock}; not exported, not an API (the module exports
 * {@code io.redlock}, {@code io.redlock.fencing} and {@code io.redlock.reactive}, none of these packages).
 *
 * <p>This package is the owner on top: {@code Engine} builds the shared parts once ({@code parts.Parts}) and the
 * parts that take the calls, and closes them in order; no part is handed the engine. The API takes acquire calls
 * straight to {@code acquire.Acquisitions} (a short path to the wire) and hands the others through the engine. The
 * packages below it, each using only those under it ({@code InternalLayersTest} holds them to that):
 * {@link io.redlock.internal.locks} (the lock kinds and {@code withLock}), {@link io.redlock.internal.acquire}
 * (acquisition rounds), {@link io.redlock.internal.lease} (leases, their extension and watchdog),
 * {@link io.redlock.internal.report} (inspect, status, ping), {@link io.redlock.internal.parts} (what every part
 * shares), {@link io.redlock.internal.release} (compare-and-delete, waiter queues, release notices),
 * {@link io.redlock.internal.protocol} (the scripts, their arguments, the keys of each lock kind),
 * {@link io.redlock.internal.node} (connections, batching, the one fan-out and its tally) and
 * {@link io.redlock.internal.time} (deadlines, the scheduler, the timer wheel).
 *
 * <p>Called by {@code io.redlock}, and by {@code io.redlock.fencing} ({@code FencedRedis} runs its script through
 * {@code node.Script} and waits through {@code locks.Blocking}). Replies are handled on Lettuce's I/O threads; timers
 * (retries, watchdog rounds, repeated deletes) run on the client's one {@code redlock-scheduler} thread, and so does
 * the deadline of a round started off the I/O thread (one started on it keeps its deadline on that event loop); the
 * blocking API waits on the caller's thread ({@code Blocking}); lease listeners and the observers are told on the thread
 * that saw the event.
 */
package io.redlock.internal;
