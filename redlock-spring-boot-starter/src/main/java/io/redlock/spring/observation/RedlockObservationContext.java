package io.redlock.spring.observation;

import io.micrometer.observation.Observation;
import java.util.Objects;

/** What every Redlock observation knows: the resource it is about. */
public abstract class RedlockObservationContext extends Observation.Context {

    private final String resource;

    RedlockObservationContext(String resource) {
        this.resource = Objects.requireNonNull(resource, "resource");
    }

    /** The locked resource (a high-cardinality value: never a metric tag). */
    public String getResource() {
        return resource;
    }
}
