package io.redlock.fencing;

import io.redlock.Lease;
import io.redlock.RedlockConfigException;
import java.util.Objects;

/**
 * What a fenced operation carries to the storage: the lease's fencing token and its value (the owner), so an equal
 * token is accepted only from the same lease.
 *
 * @param token the fencing token, in [1, 2^53)
 * @param owner the lease value that holds the token
 */
public record Fence(long token, String owner) {

    private static final long MAX_TOKEN = 1L << 53;

    public Fence {
        if (token < 1 || token >= MAX_TOKEN) {
            throw new RedlockConfigException("fencing token must be in [1, 2^53), was " + token);
        }
        if (owner == null || owner.isBlank()) {
            throw new RedlockConfigException("fence owner must not be blank, was '" + owner + "'");
        }
    }

    /** The fence of a lease: its token and value. */
    public static Fence of(Lease lease) {
        Objects.requireNonNull(lease, "lease");
        return new Fence(lease.fencingToken(), lease.value());
    }
}
