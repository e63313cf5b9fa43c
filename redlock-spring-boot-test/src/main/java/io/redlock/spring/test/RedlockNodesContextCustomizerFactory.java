package io.redlock.spring.test;

import java.util.List;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/** Gives a test class annotated {@link AutoConfigureRedlock} (or enclosed in one) its nodes. */
final class RedlockNodesContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass,
            List<ContextConfigurationAttributes> configAttributes) {
        AutoConfigureRedlock settings = TestContextAnnotationUtils.findMergedAnnotation(testClass,
                AutoConfigureRedlock.class);
        return settings == null ? null : new RedlockNodesContextCustomizer(settings.nodes(), List.of(settings.args()));
    }
}
