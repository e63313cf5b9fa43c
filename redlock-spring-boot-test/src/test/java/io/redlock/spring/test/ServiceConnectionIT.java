package io.redlock.spring.test;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.testkit.RedisServer;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A Redis container annotated {@code @ServiceConnection} is the Redlock's node, whatever {@code redlock.nodes} says.
 * No Docker engine runs here, so the container is a stand-in that Spring Boot's service connection treats as a
 * started {@code redis} container and whose host and mapped port are those of a real redis-server the testkit started:
 * Spring Boot's discovery, our factory and the starter's use of the connection details are what runs. Spring Boot
 * registers one connection of a type per context, so a second container would be ignored: several nodes take a
 * {@code RedlockConnectionDetails} bean of the application's, or {@link AutoConfigureRedlock}.
 */
@SpringBootTest(classes = TestApp.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
        properties = {"redlock.nodes=redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3",
            "redlock.node-timeout=" + AutoConfigureRedlockIT.NODE_TIMEOUT})
class ServiceConnectionIT {

    static final RedisServer SERVER = RedisServer.launch();

    @ServiceConnection
    static final RedisContainerStandIn REDIS = new RedisContainerStandIn(SERVER);

    @Autowired
    Redlock redlock;

    @AfterAll
    static void stopServer() {
        SERVER.close();
    }

    @Test
    void theRedisContainerIsTheNode() {
        assertThat(redlock.config().nodes()).extracting(uri -> uri.getPort()).containsExactly(SERVER.port());
        Lease lease = redlock.tryAcquire("contained", Duration.ofSeconds(5)).orElseThrow();
        assertThat(SERVER.get("contained")).isEqualTo(lease.value());
        lease.release();
    }

    /** A {@code redis} container that is already running: a testkit server. */
    static final class RedisContainerStandIn extends GenericContainer<RedisContainerStandIn> {

        private static final DockerImageName IMAGE = DockerImageName.parse("redis:7.4");

        private final RedisServer server;

        RedisContainerStandIn(RedisServer server) {
            super(IMAGE);
            this.server = server;
        }

        @Override
        public void start() {
            // running already: the testkit started it
        }

        @Override
        public void stop() {
            // the testkit stops it
        }

        @Override
        public String getDockerImageName() {
            return IMAGE.asCanonicalNameString(); // without asking Docker to resolve it
        }

        @Override
        public boolean isRunning() {
            return server.isRunning();
        }

        @Override
        public String getHost() {
            return server.host();
        }

        @Override
        public Integer getMappedPort(int originalPort) {
            if (originalPort != RedlockContainerConnectionDetailsFactory.REDIS_PORT) {
                throw new IllegalArgumentException("only " + RedlockContainerConnectionDetailsFactory.REDIS_PORT
                        + " is mapped, not " + originalPort);
            }
            return server.port();
        }
    }
}
