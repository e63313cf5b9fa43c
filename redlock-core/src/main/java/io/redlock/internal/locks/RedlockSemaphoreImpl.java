package io.redlock.internal.locks;

import io.redlock.Lease;
import io.redlock.LockTarget;
import io.redlock.NodeStatus;
import io.redlock.RedlockSemaphore;
import io.redlock.ResourceStatus;
import io.redlock.internal.acquire.Acquisitions;
import io.redlock.internal.protocol.PermitKeys;
import io.redlock.internal.report.Reports;
import java.time.Duration;
import java.util.BitSet;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The {@link RedlockSemaphore} handed out by a client: acquisitions of its {@link LockTarget}; the permits available
 * are read from the nodes' status of its resource.
 */
public final class RedlockSemaphoreImpl implements RedlockSemaphore {

    private final Acquisitions acquisitions;
    private final Reports reports;
    private final LockTarget target;

    public RedlockSemaphoreImpl(Acquisitions acquisitions, Reports reports, String resource, int permits) {
        this.acquisitions = acquisitions;
        this.reports = reports;
        this.target = LockTarget.permit(resource, permits);
    }

    @Override
    public String resource() {
        return target.resource();
    }

    @Override
    public int permits() {
        return target.permits();
    }

    @Override
    public Optional<Lease> tryAcquire(Duration ttl) {
        return acquire(ttl, Duration.ZERO);
    }

    @Override
    public Optional<Lease> acquire(Duration ttl, Duration maxWait) {
        return Blocking.await(acquireAsync(ttl, maxWait), "a permit of " + target.resource());
    }

    @Override
    public CompletionStage<Optional<Lease>> tryAcquireAsync(Duration ttl) {
        return acquireAsync(ttl, Duration.ZERO);
    }

    @Override
    public CompletionStage<Optional<Lease>> acquireAsync(Duration ttl, Duration maxWait) {
        return acquisitions.acquire(target, ttl, maxWait);
    }

    @Override
    public int availablePermits() {
        ResourceStatus status = Blocking.await(reports.status(target.resource()), "the permits of " + target.resource());
        if (status.answered() < status.quorum()) {
            return 0;
        }
        int[] freeOn = new int[target.permits()];
        for (NodeStatus node : status.nodes()) {
            if (!node.answered()) {
                continue;
            }
            BitSet taken = new BitSet(target.permits());
            node.sharedBy().forEach(value -> {
                int slot = PermitKeys.slotOf(value);
                if (slot >= 0) {
                    taken.set(slot);
                }
            });
            for (int slot = 0; slot < freeOn.length; slot++) {
                freeOn[slot] += taken.get(slot) ? 0 : 1;
            }
        }
        int available = 0;
        for (int free : freeOn) {
            available += free >= status.quorum() ? 1 : 0;
        }
        return available;
    }
}
