package io.redlock.spring;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.BridgeMethodResolver;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.ExpressionParser;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;

/**
 * Finds {@link Locked @Locked} on a method (also on the interface or superclass method it implements), checks it and
 * parses it once per method and target class. A mistake — a resource that is not SpEL, attributes that contradict each
 * other (see {@link LockedTarget#parse}), a duration that is not one, {@code SKIP} on a method returning a primitive,
 * an asynchronous return type — fails when the bean is proxied, that is at start-up, with a
 * {@link LockedAnnotationException} naming the method.
 */
final class LockedOperationSource {

    private static final LockedOperation NONE = new LockedOperation(null, null, null, null, null, null, null, null, null,
            null, null);

    private final ExpressionParser parser = new SpelExpressionParser();
    private final Map<MethodClassKey, LockedOperation> cache = new ConcurrentHashMap<>();
    private final ConfigurableBeanFactory beanFactory;

    /** {@code beanFactory} resolves {@code ${...}} placeholders in the durations; may be null. */
    LockedOperationSource(ConfigurableBeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /** The operation of {@code method} called on {@code targetClass}, or null if it is not {@code @Locked}. */
    LockedOperation find(Method method, Class<?> targetClass) {
        if (method.getDeclaringClass() == Object.class) {
            return null;
        }
        LockedOperation operation = cache.computeIfAbsent(new MethodClassKey(method, targetClass),
                key -> parse(method, targetClass));
        return operation == NONE ? null : operation;
    }

    private LockedOperation parse(Method method, Class<?> targetClass) {
        Method specific = BridgeMethodResolver.findBridgedMethod(
                targetClass == null ? method : AopUtils.getMostSpecificMethod(method, targetClass));
        Locked locked = AnnotatedElementUtils.findMergedAnnotation(specific, Locked.class);
        if (locked == null && specific != method) {
            locked = AnnotatedElementUtils.findMergedAnnotation(method, Locked.class);
        }
        if (locked == null) {
            return NONE;
        }
        String description = "@Locked on " + ClassUtils.getQualifiedMethodName(specific,
                targetClass != null ? targetClass : specific.getDeclaringClass()) + "()";
        Class<?> returnType = specific.getReturnType();
        LockedKind kind = LockedKind.of(returnType);
        if (kind == null) {
            throw new LockedAnnotationException(description, List.of(), "the method returns " + returnType.getName()
                    + ", whose end the lock cannot follow (it would be released before the work is done); return a"
                    + " CompletionStage, CompletableFuture, Mono, Flux or Publisher, or lock inside the work", null);
        }
        LockedTarget target = LockedTarget.parse(locked, parser, description);
        Supplier<Object> skipped = skippedValue(returnType);
        if (locked.onBusy() == OnBusy.SKIP && skipped == null) {
            throw new LockedAnnotationException(description, List.of("onBusy"), "onBusy = SKIP needs a method"
                    + " returning void or an object, not " + returnType.getName() + " (a skipped call has nothing to"
                    + " return)", null);
        }
        return new LockedOperation(specific, description, target,
                duration(description, "ttl", locked.ttl(), false),
                duration(description, "maxWait", locked.maxWait(), true),
                duration(description, "maxHold", locked.maxHold(), false),
                duration(description, "lockAtLeastFor", locked.lockAtLeastFor(), true),
                locked.onBusy(), locked.onUnavailable(), kind, skipped);
    }

    private Duration duration(String description, String attribute, String text, boolean zeroAllowed) {
        String resolved = text;
        if (beanFactory != null && text != null && !text.isEmpty()) {
            resolved = beanFactory.resolveEmbeddedValue(text);
        }
        if (resolved == null || resolved.isBlank()) {
            return null;
        }
        Duration value;
        try {
            value = DurationStyle.detectAndParse(resolved.trim());
        } catch (IllegalArgumentException e) {
            throw new LockedAnnotationException(description, List.of(attribute), attribute + " '" + text
                    + "' is not a duration (e.g. 30s, 500ms, 2m, PT30S)", e);
        }
        if (value.isNegative() || (!zeroAllowed && value.isZero())) {
            throw new LockedAnnotationException(description, List.of(attribute), attribute + " must be "
                    + (zeroAllowed ? "zero or positive" : "positive") + ", was '" + text + "'", null);
        }
        return value;
    }

    /** What a skipped call returns; null if the type cannot be returned without running the method (primitives). */
    static Supplier<Object> skippedValue(Class<?> type) {
        if (type == void.class || type == Void.class) {
            return () -> null;
        }
        if (type.isPrimitive()) {
            return null;
        }
        if (type == Optional.class) {
            return Optional::empty;
        }
        if (type == OptionalInt.class) {
            return OptionalInt::empty;
        }
        if (type == OptionalLong.class) {
            return OptionalLong::empty;
        }
        if (type == OptionalDouble.class) {
            return OptionalDouble::empty;
        }
        if (type == Stream.class) {
            return Stream::empty;
        }
        if (type == SortedSet.class || type == java.util.NavigableSet.class) {
            return Collections::emptyNavigableSet;
        }
        if (type == SortedMap.class || type == java.util.NavigableMap.class) {
            return Collections::emptyNavigableMap;
        }
        if (type.isAssignableFrom(List.class)) { // List, Collection, Iterable (and Object: null would do too)
            return type == Object.class ? () -> null : List::of;
        }
        if (type.isAssignableFrom(Set.class)) {
            return Set::of;
        }
        if (type == Map.class) {
            return Map::of;
        }
        if (Collection.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type)) {
            return () -> null; // a concrete collection class: an immutable empty one would not fit
        }
        return () -> null;
    }
}
