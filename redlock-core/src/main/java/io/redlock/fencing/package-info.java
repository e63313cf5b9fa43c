/**
 * Checks at the protected storage (FENCING.md, "What the storage must do"): accept an operation only if its fencing
 * token is at least the largest token accepted for that item — an equal token only from the same lease — checked and
 * recorded atomically with the operation, and tell the writer which token won when it is refused.
 *
 * <p>{@link io.redlock.fencing.FencedRedis} does this with Lua scripts for a Redis used as storage;
 * {@link io.redlock.fencing.FencedJdbc} with {@code fence}, {@code fence_owner} and {@code fence_deleted} columns in
 * SQL (update, fenced insert, delete with a tombstone; the insert's statement picked per database), a conflict of
 * transactions being a retryable {@link io.redlock.fencing.TransactionConflictException}. No JDBC driver is needed
 * here: the caller brings its connection.
 *
 * <p>Not offered: check-and-set with the lease's random value instead of a number (antirez's alternative). Random
 * values carry no order, so after a clock jump on one lock node two clients can both reach a majority and the storage
 * cannot tell which of them is stale; the model in {@code verification/} finds exactly that counterexample.
 */
package io.redlock.fencing;
