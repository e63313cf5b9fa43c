/**
 * The lock kinds and {@code withLock}, over acquisitions and leases; not exported. {@code RedlockLockImpl} is the
 * {@code Lock} adapter (one local owner thread and hold count over one lease, waiting with a {@code LockWait});
 * {@code RedlockReadLockImpl} a {@code Lock} adapter per reading thread; {@code RedlockReadWriteLockImpl} the pair;
 * {@code RedlockSemaphoreImpl} the semaphore. {@code LockRunner} is {@code withLock} and {@code withLockAsync}
 * (refused when nested in a lost lease of this thread: {@code EnclosingLeases}); {@code LockPlan} is the lock options
 * with the configuration's defaults; {@code Blocking} is how every blocking call waits on its asynchronous one.
 */
package io.redlock.internal.locks;
