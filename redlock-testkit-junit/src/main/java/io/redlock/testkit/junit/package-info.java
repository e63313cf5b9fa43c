/**
 * The JUnit 5 extension that gives each test its own redis-server nodes: annotate a test class or method with
 * {@link io.redlock.testkit.junit.WithRedisNodes} and take {@link io.redlock.testkit.RedisNodes} as a parameter. Called
 * by JUnit on the test's thread; the nodes are stopped when the test ends, failed or not.
 */
package io.redlock.testkit.junit;
