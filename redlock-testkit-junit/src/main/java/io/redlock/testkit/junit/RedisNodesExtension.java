package io.redlock.testkit.junit;

import io.redlock.testkit.RedisNodes;
import java.lang.reflect.AnnotatedElement;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/** Resolves {@link RedisNodes} parameters for {@link WithRedisNodes}; one set per test, closed when it ends. */
public final class RedisNodesExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(RedisNodesExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == RedisNodes.class && context.getTestMethod().isPresent();
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        WithRedisNodes spec = find(context).orElseThrow(() -> new ParameterResolutionException(
                "annotate the test class or method with @WithRedisNodes"));
        return context.getStore(NAMESPACE)
                .getOrComputeIfAbsent("nodes", key -> new Started(RedisNodes.start(spec.value(), builder -> {
                    builder.args(spec.args());
                    return spec.clockShift() ? builder.clockShift() : builder;
                })), Started.class)
                .nodes;
    }

    private static Optional<WithRedisNodes> find(ExtensionContext context) {
        Optional<WithRedisNodes> onMethod = context.getTestMethod()
                .flatMap(m -> AnnotationSupport.findAnnotation((AnnotatedElement) m, WithRedisNodes.class));
        return onMethod.isPresent() ? onMethod
                : context.getTestClass().flatMap(c -> AnnotationSupport.findAnnotation(c, WithRedisNodes.class));
    }

    /** Closed by JUnit when the test's context ends. */
    @SuppressWarnings("deprecation")
    private record Started(RedisNodes nodes) implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        @Override
        public void close() {
            nodes.close();
        }
    }
}
