package io.redlock.spring;

import io.lettuce.core.RedisURI;
import io.redlock.Redlock;
import io.redlock.RedlockBuilder;
import io.redlock.RedlockConfig;
import io.redlock.RedlockConfigException;
import io.redlock.RedlockObserver;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * A {@link Redlock} from the {@code redlock.*} properties ({@link RedlockProperties}) and a {@link RedlockTemplate};
 * each backs off when the application defines its own. Every {@link RedlockObserver} bean
 * of the application is told about the Redlock's events (the starter's metrics and observations observe every
 * Redlock bean themselves); {@link RedlockBuilderCustomizer} beans adjust the builder; {@link RedlockConnectionDetails}
 * beans (a Testcontainers service connection) give the nodes instead of the properties. Turned off by
 * {@code redlock.enabled=false}. Without a property that names the nodes (or such a bean) it backs off with one INFO
 * line saying what to set, so an application (or a {@code @SpringBootTest} slice) with the starter on its class path
 * but no Redis still starts; {@code @Locked} methods then fail when called.
 */
@AutoConfiguration
@ConditionalOnClass(Redlock.class)
@ConditionalOnProperty(prefix = "redlock", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(RedlockProperties.class)
public class RedlockAutoConfiguration {

    private static final Logger log = LoggerFactory.getLogger(RedlockAutoConfiguration.class);

    /** What the INFO line of a starter without nodes says. */
    static final String NOT_CONFIGURED = "Redlock: no Redis node configured, so no Redlock bean: set "
            + RedlockPropertiesMapper.NODES + " (independent masters), " + RedlockPropertiesMapper.SINGLE_ADDRESS
            + " or " + RedlockPropertiesMapper.SENTINEL_MASTER + " to use it, or redlock.enabled=false to silence this";

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    @Conditional(RedlockNodesConfigured.class)
    public Redlock redlock(RedlockProperties properties, ObjectProvider<RedlockConnectionDetails> connections,
            ObjectProvider<RedlockObserver> observers,
            ObjectProvider<RedlockBuilderCustomizer> customizers) {
        List<String> connectionNodes = connections.orderedStream().flatMap(c -> c.nodes().stream()).toList();
        RedlockBuilder builder = RedlockPropertiesMapper.builder(properties, connectionNodes);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        RedlockPropertiesMapper.Mode mode = connectionNodes.isEmpty() ? RedlockPropertiesMapper.mode(properties)
                : RedlockPropertiesMapper.Mode.NODES;
        RedlockConfig config;
        try {
            config = builder.config();
        } catch (RedlockConfigException e) { // a customizer's value: core's message, named as well as it can be
            throw ConfigFailures.of(e, properties);
        }
        if (mode == RedlockPropertiesMapper.Mode.SENTINEL) {
            log.warn(RedlockPropertiesMapper.SENTINEL_CAVEAT);
        } else if (mode == RedlockPropertiesMapper.Mode.NODES && config.nodes().size() == 2) {
            log.warn("Redlock with 2 nodes needs both to answer (quorum 2): use an odd number, at least 3");
        }
        log.info("Redlock: {} node(s) [{}], quorum {}, default TTL {}, node timeout {}, fencing {}",
                config.nodes().size(), names(config.nodes()), config.quorum(),
                print(config.defaultTtl()), print(config.nodeTimeout()),
                config.fencing() ? "on" : "off");
        Redlock redlock = Redlock.create(config);
        // the starter's own observers (metrics, observations) reach every Redlock bean, this one or the
        // application's, through StarterObservers
        observers.orderedStream().filter(o -> !StarterObservers.isStarters(o)).forEach(redlock::addObserver);
        return redlock;
    }

    /** Without nodes and without a Redlock of the application's: the one INFO line. */
    @Bean
    @Conditional(RedlockNodesConfigured.Missing.class)
    @ConditionalOnMissingBean(Redlock.class)
    static SmartInitializingSingleton redlockNotConfigured() {
        return () -> log.info(NOT_CONFIGURED);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(Redlock.class)
    public RedlockTemplate redlockTemplate(Redlock redlock, RedlockProperties properties) {
        return new RedlockTemplate(redlock, RedlockPropertiesMapper.defaultLockOptions(properties));
    }

    /** 30s, 2m, 50ms: the largest unit that is exact. */
    static String print(java.time.Duration duration) {
        long millis = duration.toMillis();
        if (millis != 0 && millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis != 0 && millis % 1000 == 0) {
            return millis / 1000 + "s";
        }
        return millis + "ms";
    }

    /** {@code host:port} per node (sentinel masters by name and sentinels), never with credentials. */
    static String names(List<RedisURI> nodes) {
        return nodes.stream().map(RedlockAutoConfiguration::name).collect(Collectors.joining(", "));
    }

    static String name(RedisURI uri) {
        if (uri.getSocket() != null) {
            return "unix:" + uri.getSocket();
        }
        if (uri.getSentinelMasterId() != null) {
            return "sentinel:" + uri.getSentinelMasterId() + "@" + uri.getSentinels().stream()
                    .map(s -> s.getHost() + ":" + s.getPort()).collect(Collectors.joining(","));
        }
        return uri.getHost() + ":" + uri.getPort();
    }
}
