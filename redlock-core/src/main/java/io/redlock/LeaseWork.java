package io.redlock;

/** Work to run while holding a lease; see {@link Redlock#withLock(String, LockOptions, LeaseWork)}. */
@FunctionalInterface
public interface LeaseWork<T> {

    T run(Lease lease) throws Exception;
}
