package io.redlock.testkit;

import static io.redlock.testkit.ProxyItSupport.PATIENCE;
import static io.redlock.testkit.ProxyItSupport.POLL;
import static io.redlock.testkit.ProxyItSupport.proxyThreads;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** The fixture of the {@link TcpProxy} tests: one server and one Lettuce client per class, no proxy thread left. */
abstract class ProxyFixture {

    static RedisServer server;
    static RedisClient lettuce;

    @BeforeAll
    static void startServer() {
        server = RedisServer.launch();
        lettuce = RedisClient.create();
    }

    @AfterAll
    static void stopServer() {
        if (lettuce != null) {
            lettuce.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        }
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void noProxyThreadOutlivesItsProxy() {
        await().atMost(PATIENCE).pollInterval(POLL).until(() -> proxyThreads("tcp-proxy-").isEmpty());
    }
}
