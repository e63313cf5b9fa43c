package io.redlock.testkit.junit;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives each test a fresh set of real Redis nodes: declare a {@link RedisNodes} parameter on the test method or a
 * {@code @BeforeEach} method. The nodes are killed after the test, also when it fails, and by a shutdown hook if the
 * JVM exits first.
 *
 * <pre>{@code
 * @WithRedisNodes(5)
 * class MutualExclusionIT {
 *     @Test
 *     void neverTwoHolders(RedisNodes nodes) { ... }
 * }
 * }</pre>
 *
 * A method-level annotation overrides the class-level one; a subclass inherits its superclass's.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(RedisNodesExtension.class)
public @interface WithRedisNodes {

    /** How many independent nodes. */
    int value() default RedisNodes.DEFAULT_SIZE;

    /** Extra redis-server arguments for every node. */
    String[] args() default {};

    /** Start every node with the clock-shift shim, so {@link RedisServer#shiftClock} works (needs gcc). */
    boolean clockShift() default false;
}
