/**
 * Real {@code redis-server} processes on free loopback ports, and the faults tests inject into them:
 * {@code RedisServer} (kill, restart, SIGSTOP/SIGCONT, client pause, a shifted clock through {@code ClockShim}),
 * {@code RedisNodes} (a set of independent servers), {@code RedisSentinel}, and {@code TcpProxy} for network faults
 * on 127.0.0.1. {@code RedisBinary} finds the server binary: the system's, else the one inside the embedded-redis jar.
 * {@code PostgresServer} and {@code MariaDbServer} ({@code SqlServer}s) start the database servers of Debian's
 * packages the same way, as an unprivileged user, for the tests of fenced storage.
 *
 * <p>Called by tests (through {@code redlock-testkit-junit}'s {@code @WithRedisNodes} or directly) and by the
 * {@code redlock servers} and {@code redlock demo} commands, on their own threads; a JVM shutdown hook kills every
 * server still running. No JUnit here.
 */
package io.redlock.testkit;
