package io.redlock.spring.observation;

import io.redlock.RedlockObserver.AcquireResult;
import java.util.Optional;

/** An acquisition call: its resource, then how it ended. */
public class RedlockAcquisitionContext extends RedlockObservationContext {

    private volatile AcquireResult result;

    RedlockAcquisitionContext(String resource) {
        super(resource);
    }

    /** How the call ended; empty while it runs. */
    public Optional<AcquireResult> getResult() {
        return Optional.ofNullable(result);
    }

    void setResult(AcquireResult result) {
        this.result = result;
    }
}
