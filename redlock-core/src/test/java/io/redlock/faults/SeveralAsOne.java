package io.redlock.faults;

import io.redlock.Lease;
import io.redlock.LeaseListener;
import io.redlock.LossReason;
import io.redlock.MultiLease;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * A lock of several resources seen by the workload as the lease of its first resource (the one every worker locks):
 * its value, token, validity, extension and release are those of the whole. What the workload does not use is
 * unsupported.
 */
record SeveralAsOne(MultiLease several) implements Lease {

    @Override
    public String resource() {
        return several.resources().get(0);
    }

    @Override
    public String value() {
        return several.value();
    }

    @Override
    public long fencingToken() {
        return several.fencingToken(resource());
    }

    @Override
    public long validUntil() {
        return several.validUntil();
    }

    @Override
    public Duration remainingValidity() {
        return several.remainingValidity();
    }

    @Override
    public boolean isValid() {
        return several.isValid();
    }

    @Override
    public Optional<LossReason> lossReason() {
        return several.lossReason();
    }

    @Override
    public void onLost(LeaseListener listener) {
        throw new UnsupportedOperationException("not used by the workload");
    }

    @Override
    public CompletionStage<Boolean> extendAsync(Duration ttl) {
        return several.extendAsync(ttl);
    }

    @Override
    public CompletionStage<Void> releaseAsync() {
        return several.releaseAsync();
    }

    @Override
    public CompletionStage<Void> releaseAfterAsync(Duration keep) {
        throw new UnsupportedOperationException("not used by the workload");
    }
}
