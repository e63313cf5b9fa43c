package io.redlock.testkit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/** What the {@link TcpProxy} tests share: timings derived from one unit, a Lettuce connection, the proxy's threads. */
final class ProxyItSupport {

    static final String HOST = "127.0.0.1";
    /** The one base unit every timing margin is derived from. */
    static final Duration UNIT = Duration.ofMillis(100);
    static final Duration DELAY = UNIT;
    /** Generous: a cold first command under load took over 5 units; only the timeout cases wait it out. */
    static final Duration CLIENT_TIMEOUT = UNIT.multipliedBy(20);
    static final Duration SILENCE = UNIT.multipliedBy(5);
    static final Duration PATIENCE = UNIT.multipliedBy(50);
    static final Duration POLL = UNIT.dividedBy(5);

    private ProxyItSupport() {
    }

    /** A connection of {@code lettuce} through {@code proxy}, with a command timeout of {@link #CLIENT_TIMEOUT}. */
    static StatefulRedisConnection<String, String> connect(RedisClient lettuce, TcpProxy proxy) {
        RedisURI uri = RedisURI.create(proxy.uri());
        uri.setTimeout(CLIENT_TIMEOUT);
        return lettuce.connect(uri);
    }

    /** The names of the live threads whose names start with {@code prefix}, sorted. */
    static List<String> proxyThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(Thread::getName)
                .filter(name -> name.startsWith(prefix))
                .sorted()
                .collect(Collectors.toList());
    }
}
