/**
 * Time inside the library; not exported. {@code Deadline} counts down on the injected {@code io.redlock.Ticker},
 * never the wall clock; {@code Scheduler} is what runs timers (the one {@code ThreadScheduler} thread in production,
 * a manual one in tests), and {@code TimerWheel} groups the watchdog's timers into ticks on it
 * ({@code Scheduler.WATCHDOG_TICK}).
 */
package io.redlock.internal.time;
