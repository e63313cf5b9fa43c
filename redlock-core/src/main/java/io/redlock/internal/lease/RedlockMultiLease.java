package io.redlock.internal.lease;

import io.redlock.LossReason;
import io.redlock.MultiLease;
import io.redlock.internal.protocol.KeysOfAll;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The {@link MultiLease} of a lock of several resources: the resources over the lease of their keys
 * ({@link KeysOfAll}), which extends, releases and is watched as any lease is.
 */
public final class RedlockMultiLease implements MultiLease {

    private final List<String> resources;
    private final RedlockLease lease;

    public RedlockMultiLease(List<String> resources, RedlockLease lease) {
        this.resources = resources;
        this.lease = lease;
    }

    /** The lease of the resources' keys. */
    RedlockLease lease() {
        return lease;
    }

    @Override
    public List<String> resources() {
        return resources;
    }

    @Override
    public String value() {
        return lease.value();
    }

    @Override
    public long fencingToken(String resource) {
        if (!resources.contains(resource)) {
            throw new IllegalArgumentException("'" + resource + "' is not one of the resources of this lease, "
                    + resources);
        }
        return lease.fencingToken();
    }

    @Override
    public long validUntil() {
        return lease.validUntil();
    }

    @Override
    public Duration remainingValidity() {
        return lease.remainingValidity();
    }

    @Override
    public boolean isValid() {
        return lease.isValid();
    }

    @Override
    public Optional<LossReason> lossReason() {
        return lease.lossReason();
    }

    @Override
    public CompletionStage<Boolean> extendAsync(Duration ttl) {
        return lease.extendAsync(ttl);
    }

    @Override
    public CompletionStage<Void> releaseAsync() {
        return lease.releaseAsync();
    }

    @Override
    public String toString() {
        return "Multi" + lease;
    }
}
