package io.redlock.internal.node;

import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisReactiveCommandsImpl;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.api.reactive.RedisReactiveCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.protocol.PushHandler;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;

/**
 * A {@link RedisClient} whose connections make their synchronous and reactive command APIs when first asked for, not
 * when they open. The library uses only the asynchronous API; Lettuce's synchronous one is a proxy class generated at
 * run time from a few hundred command methods, which the first connection of a process would otherwise pay for (about
 * 50-90 ms of a short command's start on a 2-core machine).
 */
final class AsyncOnlyRedisClient extends RedisClient {

    AsyncOnlyRedisClient(ClientResources resources) {
        super(resources, new RedisURI());
    }

    @Override
    protected <K, V> StatefulRedisConnectionImpl<K, V> newStatefulRedisConnection(RedisChannelWriter channelWriter,
            PushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout) {
        return new Connection<>(channelWriter, pushHandler, codec, timeout);
    }

    /** A connection whose synchronous and reactive APIs are made on first use. */
    private static final class Connection<K, V> extends StatefulRedisConnectionImpl<K, V> {

        /** False while the superclass's constructor runs: the APIs it makes then are left out. */
        private final boolean constructed;
        private final Object lock = new Object();
        private volatile RedisCommands<K, V> lazySync;
        private volatile RedisReactiveCommandsImpl<K, V> lazyReactive;

        Connection(RedisChannelWriter writer, PushHandler pushHandler, RedisCodec<K, V> codec, Duration timeout) {
            super(writer, pushHandler, codec, timeout);
            this.constructed = true;
        }

        @Override
        protected RedisCommands<K, V> newRedisSyncCommandsImpl() {
            return constructed ? super.newRedisSyncCommandsImpl() : null;
        }

        @Override
        protected RedisReactiveCommandsImpl<K, V> newRedisReactiveCommandsImpl() {
            return constructed ? super.newRedisReactiveCommandsImpl() : null;
        }

        @Override
        public RedisCommands<K, V> sync() {
            RedisCommands<K, V> sync = lazySync;
            if (sync == null) {
                synchronized (lock) {
                    sync = lazySync;
                    if (sync == null) {
                        sync = newRedisSyncCommandsImpl();
                        lazySync = sync;
                    }
                }
            }
            return sync;
        }

        @Override
        public RedisReactiveCommands<K, V> reactive() {
            RedisReactiveCommandsImpl<K, V> reactive = lazyReactive;
            if (reactive == null) {
                synchronized (lock) {
                    reactive = lazyReactive;
                    if (reactive == null) {
                        reactive = newRedisReactiveCommandsImpl();
                        lazyReactive = reactive;
                    }
                }
            }
            return reactive;
        }
    }
}
