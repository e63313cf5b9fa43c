package io.redlock.spring.observation;

import io.redlock.LockTarget;
import io.redlock.RedlockObserver.AcquireResult;
import java.util.Optional;

/** An acquisition call: its resource and kind of lock, then how it ended. */
public class RedlockAcquisitionContext extends RedlockObservationContext {

    private final LockTarget.Kind kind;
    private volatile AcquireResult result;

    RedlockAcquisitionContext(String resource, LockTarget.Kind kind) {
        super(resource);
        this.kind = kind;
    }

    /** The kind of lock asked for. */
    public LockTarget.Kind getKind() {
        return kind;
    }

    /** How the call ended; empty while it runs. */
    public Optional<AcquireResult> getResult() {
        return Optional.ofNullable(result);
    }

    void setResult(AcquireResult result) {
        this.result = result;
    }
}
