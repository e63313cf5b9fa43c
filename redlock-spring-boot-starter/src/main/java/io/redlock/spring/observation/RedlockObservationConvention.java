package io.redlock.spring.observation;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import java.util.Locale;

/**
 * What the Redlock observations share: a name, a contextual name (the span's), and the resource as the
 * high-cardinality key value {@value #RESOURCE}, only when asked for (resource names are unbounded and may be
 * sensitive); subclasses give the low-cardinality key values. Subclass one of the two conventions and declare it as a bean to change them.
 */
public abstract class RedlockObservationConvention<C extends RedlockObservationContext>
        implements ObservationConvention<C> {

    /** The high-cardinality key of the resource. */
    public static final String RESOURCE = "redlock.resource";

    private final Class<C> contextType;
    private final String name;
    private final String contextualName;
    private final boolean includeResource;

    RedlockObservationConvention(Class<C> contextType, String name, String contextualName, boolean includeResource) {
        this.contextType = contextType;
        this.name = name;
        this.contextualName = contextualName;
        this.includeResource = includeResource;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getContextualName(C context) {
        return contextualName;
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(C context) {
        return includeResource ? KeyValues.of(RESOURCE, context.getResource()) : KeyValues.empty();
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return contextType.isInstance(context);
    }

    /** An enum constant as a key value: lower case. */
    static String value(Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }
}
