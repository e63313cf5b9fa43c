package io.redlock.spring;

import java.util.List;

/**
 * A {@link Locked @Locked} annotation that cannot be run: attributes that contradict each other, a resource that is not
 * SpEL, a duration that is not one, a return type the lock cannot follow. Thrown when the bean is proxied, that is at
 * start-up; the message names the method and what to change.
 */
public class LockedAnnotationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final List<String> attributes;

    LockedAnnotationException(String description, List<String> attributes, String problem, Throwable cause) {
        super(description + ": " + problem, cause);
        this.attributes = List.copyOf(attributes);
    }

    /** The attributes at fault as the annotation names them ({@code resources}, {@code mode}, {@code ttl}...). */
    public List<String> attributes() {
        return attributes;
    }
}
