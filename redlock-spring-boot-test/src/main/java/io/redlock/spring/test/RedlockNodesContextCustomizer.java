package io.redlock.spring.test;

import io.redlock.testkit.RedisNodes;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

/**
 * Starts the nodes before the context refreshes, puts {@code redlock.nodes} first among its property sources and the
 * nodes among its beans, and stops them after every other bean of the context was destroyed (the Redlock released
 * its locks by then). Equal for equal settings, so that contexts with the same settings are cached as one.
 */
final class RedlockNodesContextCustomizer implements ContextCustomizer {

    /** The bean name of the nodes, and of the property source. */
    static final String NAME = "redlockTestNodes";

    private final int count;
    private final List<String> args;

    RedlockNodesContextCustomizer(int count, List<String> args) {
        if (count < 1) {
            throw new IllegalArgumentException("@AutoConfigureRedlock(nodes = " + count + "): at least one node");
        }
        this.count = count;
        this.args = List.copyOf(args);
    }

    @Override
    public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
        RedisNodes nodes = RedisNodes.start(count, args.toArray(String[]::new));
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource(NAME,
                Map.of("redlock.nodes", String.join(",", nodes.uris()))));
        // registered before any other bean, so destroyed after all of them
        DefaultListableBeanFactory beans = (DefaultListableBeanFactory) context.getBeanFactory();
        beans.registerSingleton(NAME, nodes);
        beans.registerDisposableBean(NAME, nodes::close);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RedlockNodesContextCustomizer that && count == that.count && args.equals(that.args);
    }

    @Override
    public int hashCode() {
        return Objects.hash(count, args);
    }
}
