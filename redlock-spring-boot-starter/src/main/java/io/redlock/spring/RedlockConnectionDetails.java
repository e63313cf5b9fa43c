package io.redlock.spring;

import java.util.List;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Where the Redis nodes of the auto-configured Redlock are, when something other than the {@code redlock.*}
 * properties knows: a Testcontainers {@code @ServiceConnection} to a Redis container (redlock-spring-boot-test gives
 * it), or a bean of the application's, e.g. {@code () -> List.of(uriOf(redis1), uriOf(redis2), uriOf(redis3))} for
 * three containers. Every such bean adds its nodes; together they replace {@code redlock.nodes},
 * {@code redlock.single.*} and {@code redlock.sentinel.*}, while the other {@code redlock.*} settings still apply.
 */
public interface RedlockConnectionDetails extends ConnectionDetails {

    /** Redis URIs of independent masters, e.g. {@code redis://:password@localhost:32768}; passwords are never shown. */
    List<String> nodes();
}
