/**
 * A ShedLock {@link net.javacrumbs.shedlock.core.LockProvider} over a Redlock quorum: {@link
 * io.redlock.shedlock.RedlockLockProvider}. {@code lockAtMostFor} is the lease's TTL (no watchdog: ShedLock's
 * contract), {@code lockAtLeastFor} keeps the lock's keys after an early unlock, {@code SimpleLock.extend} is a
 * majority-confirmed extension, and the fencing token of the running job is {@link
 * io.redlock.shedlock.RedlockLockProvider#currentLease()}.
 */
package io.redlock.shedlock;
