package io.redlock.spring;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

/**
 * How a {@link Locked @Locked} method's result is awaited before the lock ends: returned (blocking), completed (a
 * {@code CompletionStage}), or terminated (a Reactor {@code Mono} or {@code Flux}, or a plain {@code Publisher}).
 */
enum LockedKind {
    BLOCKING,
    COMPLETION_STAGE,
    MONO,
    FLUX;

    private static final String MONO_CLASS = "reactor.core.publisher.Mono";
    private static final String FLUX_CLASS = "reactor.core.publisher.Flux";
    private static final String PUBLISHER_CLASS = "org.reactivestreams.Publisher";

    /**
     * The kind for a method returning {@code type}, or null if the lock cannot follow such a result: a
     * {@code Future} that is not a {@code CompletionStage}, a publisher the library cannot hand back (a declared
     * type a {@code Flux} or {@code Mono} does not fit), a Kotlin {@code Flow}.
     */
    static LockedKind of(Class<?> type) {
        if (CompletionStage.class.isAssignableFrom(type)) {
            return type.isAssignableFrom(CompletableFuture.class) ? COMPLETION_STAGE : null;
        }
        if (Future.class.isAssignableFrom(type) || named(type, "kotlinx.coroutines.flow.Flow")) {
            return null;
        }
        if (named(type, PUBLISHER_CLASS)) {
            if (type.getName().equals(MONO_CLASS)) {
                return MONO;
            }
            return type.getName().equals(FLUX_CLASS) || type.getName().equals(PUBLISHER_CLASS) ? FLUX : null;
        }
        return BLOCKING;
    }

    /** Whether {@code type} is or extends the class or interface {@code name} (absent from its class loader: no). */
    private static boolean named(Class<?> type, String name) {
        try {
            return Class.forName(name, false, type.getClassLoader()).isAssignableFrom(type);
        } catch (ClassNotFoundException | LinkageError absent) {
            return false;
        }
    }
}
