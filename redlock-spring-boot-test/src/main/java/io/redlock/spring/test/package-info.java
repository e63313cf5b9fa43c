/**
 * Test support for Spring Boot applications that use redlock-java. {@link io.redlock.spring.test.AutoConfigureRedlock}
 * on a {@code @SpringBootTest} starts real, independent Redis nodes on free loopback ports for its application context
 * (a {@code ContextCustomizerFactory} registered in {@code META-INF/spring.factories}) and points
 * {@code redlock.nodes} at them; the nodes stop when the context closes. With Testcontainers, a Redis container
 * annotated {@code @ServiceConnection} is the Redlock's node ({@code RedlockContainerConnectionDetailsFactory}).
 *
 * <p>Called by the Spring TestContext Framework, once per cached application context.
 */
package io.redlock.spring.test;
