package io.redlock.spring.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Starts {@link #nodes()} real, independent Redis nodes (the system {@code redis-server}, else the one shipped in the
 * embedded-redis jar) on free loopback ports for the application context of a {@code @SpringBootTest}, and sets
 * {@code redlock.nodes} to them, so the auto-configured Redlock locks on them. The nodes live as long as the context:
 * test classes with the same settings share the cached context and its nodes; they stop when it closes (at the
 * latest when the JVM exits). They are a bean too, of type {@code io.redlock.testkit.RedisNodes}, for tests that
 * stop, pause or restart a node.
 *
 * <pre>{@code
 * @SpringBootTest
 * @AutoConfigureRedlock(nodes = 3)
 * class ShippingTests {
 *     @Autowired Redlock redlock;
 *     @Autowired RedisNodes nodes;   // to kill one and see the lock still work
 * }
 * }</pre>
 *
 * {@code redlock.nodes} replaces the nodes the application's configuration names; set neither
 * {@code redlock.single.address} nor {@code redlock.sentinel.*} for the test, as they select another mode.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface AutoConfigureRedlock {

    /** How many independent nodes; 3 by default (a quorum of 2). */
    int nodes() default 3;

    /** Extra {@code redis-server} arguments for every node, e.g. {@code {"--requirepass", "secret"}}. */
    String[] args() default {};
}
