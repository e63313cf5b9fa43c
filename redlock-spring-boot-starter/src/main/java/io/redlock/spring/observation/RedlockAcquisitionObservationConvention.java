package io.redlock.spring.observation;

import io.micrometer.common.KeyValues;

/**
 * The {@value #NAME} observation of an acquisition call (all its rounds): contextual name {@code redlock acquire},
 * low-cardinality keys {@value #KIND} (the kind of lock: {@code lock}, {@code several}, {@code read}, {@code write},
 * {@code permit}) and {@value #RESULT} ({@code acquired}, {@code busy} or {@code error}) once the call ended.
 */
public class RedlockAcquisitionObservationConvention extends RedlockObservationConvention<RedlockAcquisitionContext> {

    /** The observation's name, and so the name of the timer it records. */
    public static final String NAME = "redlock.acquisition";
    /** How the call ended. */
    public static final String RESULT = "redlock.result";
    /** The kind of lock. */
    public static final String KIND = "redlock.kind";

    /** With the resource as a high-cardinality key value if {@code includeResource}. */
    public RedlockAcquisitionObservationConvention(boolean includeResource) {
        super(RedlockAcquisitionContext.class, NAME, "redlock acquire", includeResource);
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(RedlockAcquisitionContext context) {
        KeyValues kind = KeyValues.of(KIND, context.getKind().tag());
        return context.getResult().map(result -> kind.and(RESULT, value(result))).orElse(kind);
    }
}
