package io.redlock.internal.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The library's connections open without Lettuce's synchronous and reactive command APIs (the synchronous one is a
 * proxy class generated at run time) and still give either on first use; the asynchronous API works from the start.
 */
@WithRedisNodes(1)
class AsyncOnlyRedisClientIT {

    @Test
    void aConnectionOpensWithoutItsSynchronousApiAndMakesItWhenAskedFor(RedisNodes nodes) throws Exception {
        ClientResources resources = DefaultClientResources.builder().ioThreadPoolSize(2).computationThreadPoolSize(1)
                .build();
        AsyncOnlyRedisClient client = new AsyncOnlyRedisClient(resources);
        try (StatefulRedisConnection<String, String> connection = client.connectAsync(StringCodec.UTF8,
                io.lettuce.core.RedisURI.create(nodes.node(0).uri())).get(30, TimeUnit.SECONDS)) {
            assertThat(connection.async().ping().get(30, TimeUnit.SECONDS)).isEqualTo("PONG");
            assertThat(unmadeSync(connection)).as("the synchronous API, before anything asked for it").isTrue();

            assertThat(Proxy.isProxyClass(connection.sync().getClass())).isTrue();
            assertThat(connection.sync()).isSameAs(connection.sync());
            assertThat(connection.sync().set("async-only", "1")).isEqualTo("OK");
            assertThat(connection.reactive()).isSameAs(connection.reactive());
            assertThat(connection.reactive().get("async-only").block(Duration.ofSeconds(30))).isEqualTo("1");
        } finally {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(5));
            resources.shutdown(0, 5, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
        }
    }

    /** True while the connection holds no synchronous API yet (Lettuce's own field is left empty). */
    private static boolean unmadeSync(StatefulRedisConnection<String, String> connection) throws Exception {
        var field = io.lettuce.core.StatefulRedisConnectionImpl.class.getDeclaredField("sync");
        field.setAccessible(true);
        return field.get(connection) == null;
    }
}
