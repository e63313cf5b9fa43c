/**
 * Jepsen-style histories of distributed-lock operations and checkers that look for safety violations in them.
 *
 * <p>Test workers record every operation with a {@link io.redlock.testkit.history.History}: an invocation followed
 * by exactly one completion, {@code ok}, {@code fail} (definitely not applied) or {@code unknown} (timed out, maybe
 * applied), all stamped with a monotonic clock. {@link io.redlock.testkit.history.Checkers} then checks the recorded
 * {@link io.redlock.testkit.history.Event}s for overlapping lock holders, fencing tokens accepted out of order and
 * lost increments. The package depends on the JDK only.
 */
package io.redlock.testkit.history;
