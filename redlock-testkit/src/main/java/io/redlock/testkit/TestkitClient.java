package io.redlock.testkit;

import io.lettuce.core.RedisClient;

/** One Lettuce client per JVM for the testkit's own commands; its threads are daemons. */
final class TestkitClient {

    private static volatile RedisClient client;

    private TestkitClient() {
    }

    static RedisClient get() {
        RedisClient c = client;
        if (c == null) {
            synchronized (TestkitClient.class) {
                c = client;
                if (c == null) {
                    c = RedisClient.create();
                    client = c;
                }
            }
        }
        return c;
    }
}
