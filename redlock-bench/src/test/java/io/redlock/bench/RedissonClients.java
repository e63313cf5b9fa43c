package io.redlock.bench;

import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** Redisson clients as a user would make them: one single-server client per node, Redisson's defaults otherwise. */
final class RedissonClients {

    private RedissonClients() {
    }

    static RedissonClient create(String uri) {
        Config config = new Config();
        config.useSingleServer().setAddress(uri);
        return Redisson.create(config);
    }

    /** Shuts a client down without Redisson's default 2 s quiet period: the measuring is over by then. */
    static void shutdown(RedissonClient client) {
        client.shutdown(0, 5, TimeUnit.SECONDS);
    }
}
