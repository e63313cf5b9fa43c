package io.redlock.spring.observation;

import io.redlock.Lease;
import io.redlock.LossReason;
import java.util.Optional;

/** The hold of a kept-alive lease: the lease, then whether it ended released or lost. */
public class RedlockHoldContext extends RedlockObservationContext {

    private final Lease lease;
    private volatile boolean ended;
    private volatile LossReason loss;

    RedlockHoldContext(Lease lease) {
        super(lease.resource());
        this.lease = lease;
    }

    /** The lease held. */
    public Lease getLease() {
        return lease;
    }

    /** Whether the hold ended. */
    public boolean isEnded() {
        return ended;
    }

    /** Why the lease was lost, if it was; empty while held and when released. */
    public Optional<LossReason> getLoss() {
        return Optional.ofNullable(loss);
    }

    void end(Optional<LossReason> loss) {
        this.loss = loss.orElse(null);
        this.ended = true;
    }
}
