package io.redlock.spring.observation;

import io.micrometer.common.KeyValues;

/**
 * The {@value #NAME} observation of a kept-alive lease, from its grant to its release or loss: contextual name
 * {@code redlock hold}, low-cardinality key {@value #OUTCOME} once it ended: {@code released}, or the loss
 * ({@code extension_refused}, {@code expired}, {@code max_hold}, {@code closed}).
 */
public class RedlockHoldObservationConvention extends RedlockObservationConvention<RedlockHoldContext> {

    /** The observation's name, and so the name of the timer it records. */
    public static final String NAME = "redlock.hold";
    /** How the hold ended. */
    public static final String OUTCOME = "redlock.outcome";

    /** With the resource as a high-cardinality key value if {@code includeResource}. */
    public RedlockHoldObservationConvention(boolean includeResource) {
        super(RedlockHoldContext.class, NAME, "redlock hold", includeResource);
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(RedlockHoldContext context) {
        if (!context.isEnded()) {
            return KeyValues.empty();
        }
        return KeyValues.of(OUTCOME, context.getLoss().map(RedlockObservationConvention::value).orElse("released"));
    }
}
