package io.redlock.spring.test;

import io.redlock.spring.RedlockConnectionDetails;
import java.util.List;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionDetailsFactory;
import org.springframework.boot.testcontainers.service.connection.ContainerConnectionSource;
import org.testcontainers.containers.Container;

/**
 * A Redis container annotated {@code @ServiceConnection} is the Redlock's node ({@code redis://host:mapped-port}):
 * containers whose image (or {@code @ServiceConnection(name = ...)}) is {@code redis}, {@code redis/redis-stack} or
 * {@code redis/redis-stack-server}, the names Spring Boot's own Redis connection knows. Spring Boot registers one
 * service connection of a type per context (a second container is ignored): several nodes take a
 * {@code RedlockConnectionDetails} bean that lists them, or {@link AutoConfigureRedlock}.
 */
final class RedlockContainerConnectionDetailsFactory
        extends ContainerConnectionDetailsFactory<Container<?>, RedlockConnectionDetails> {

    /** The port Redis listens on inside the container. */
    static final int REDIS_PORT = 6379;

    RedlockContainerConnectionDetailsFactory() {
        super(List.of("redis", "redis/redis-stack", "redis/redis-stack-server"));
    }

    @Override
    protected RedlockConnectionDetails getContainerConnectionDetails(ContainerConnectionSource<Container<?>> source) {
        return new ContainerNode(source);
    }

    /** One container's node, known once the container started. */
    private static final class ContainerNode extends ContainerConnectionDetails<Container<?>>
            implements RedlockConnectionDetails {

        ContainerNode(ContainerConnectionSource<Container<?>> source) {
            super(source);
        }

        @Override
        public List<String> nodes() {
            Container<?> container = getContainer();
            return List.of("redis://" + container.getHost() + ":" + container.getMappedPort(REDIS_PORT));
        }
    }
}
