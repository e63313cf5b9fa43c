package io.redlock.spring.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.redlock.Lease;
import io.redlock.LockTarget;
import io.redlock.LeaseLostException;
import io.redlock.Redlock;
import io.redlock.RedlockObserver;
import java.util.Objects;

/**
 * Micrometer Observations of a {@link Redlock}, as its {@link RedlockObserver}: one {@code redlock.acquisition} per
 * acquisition call, started on the caller's thread (so its parent is the caller's current observation) and stopped
 * when the call ends, with the error if it threw; one {@code redlock.hold} per kept-alive lease ({@code withLock},
 * {@code @Locked}, {@code RedlockLock}, {@code ReactiveRedlock.withLock}), from the grant to the release or the loss,
 * a loss recorded as a {@link LeaseLostException}. With Spring Boot's default handlers each also records a timer of
 * its name and a {@code .active} long task timer. Nothing is done with a no-op registry.
 */
public class RedlockObservations implements RedlockObserver {

    private final ObservationRegistry registry;
    private final RedlockAcquisitionObservationConvention customAcquisition;
    private final RedlockHoldObservationConvention customHold;
    private final RedlockAcquisitionObservationConvention defaultAcquisition;
    private final RedlockHoldObservationConvention defaultHold;

    /** Observations with the default conventions, the resource included if {@code includeResource}. */
    public RedlockObservations(ObservationRegistry registry, boolean includeResource) {
        this(registry, null, null, includeResource);
    }

    /**
     * Observations named and tagged by {@code acquisition} and {@code hold} where given (null: the registry's global
     * conventions, else the defaults), the resource included by the defaults if {@code includeResource}.
     */
    public RedlockObservations(ObservationRegistry registry, RedlockAcquisitionObservationConvention acquisition,
            RedlockHoldObservationConvention hold, boolean includeResource) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.customAcquisition = acquisition;
        this.customHold = hold;
        this.defaultAcquisition = new RedlockAcquisitionObservationConvention(includeResource);
        this.defaultHold = new RedlockHoldObservationConvention(includeResource);
    }

    @Override
    public Acquisition acquisitionStarted(String resource, LockTarget.Kind kind) {
        if (registry.isNoop()) {
            return Acquisition.NONE;
        }
        RedlockAcquisitionContext context = new RedlockAcquisitionContext(resource, kind);
        Observation observation = Observation.createNotStarted(customAcquisition, defaultAcquisition, () -> context,
                registry).start();
        return (result, failure) -> {
            context.setResult(result);
            failure.ifPresent(observation::error);
            observation.stop();
        };
    }

    @Override
    public Hold holdStarted(Lease lease) {
        if (registry.isNoop()) {
            return Hold.NONE;
        }
        RedlockHoldContext context = new RedlockHoldContext(lease);
        Observation observation = Observation.createNotStarted(customHold, defaultHold, () -> context, registry)
                .start();
        return lost -> {
            context.end(lost);
            lost.ifPresent(reason -> observation.error(new LeaseLostException(lease.resource(), reason, null)));
            observation.stop();
        };
    }
}
