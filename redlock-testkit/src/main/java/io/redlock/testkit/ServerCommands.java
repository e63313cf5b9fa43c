package io.redlock.testkit;

import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

/**
 * The commands a test sends a {@link RedisServer} itself, over a fresh connection of the testkit's own client, apart
 * from the library under test.
 */
final class ServerCommands {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private ServerCommands() {
    }

    /** Runs {@code commands} over a new connection to {@code port} (with {@code password}, if not null), then closes it. */
    static <T> T run(int port, String password, Function<RedisCommands<String, String>, T> commands) {
        RedisURI.Builder uri = RedisURI.builder().withHost(ServerProbes.HOST).withPort(port).withTimeout(TIMEOUT);
        if (password != null) {
            uri.withPassword(password.toCharArray());
        }
        try (StatefulRedisConnection<String, String> connection = TestkitClient.get().connect(uri.build())) {
            return commands.apply(connection.sync());
        }
    }

    /**
     * Asks the server on {@code port} its {@code TIME} until it reads the real time plus {@code offset}, within a
     * second (the shim reads its offset on every clock call, so this is at once unless something is wrong). A server
     * that does not answer is left alone: a row may shift the clock of a node it is about to stall.
     */
    static void awaitClock(int port, String password, Duration offset, java.util.function.Supplier<String> server) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (true) {
            long skew;
            try {
                skew = run(port, password, ServerCommands::clockMillis) - System.currentTimeMillis() - offset.toMillis();
            } catch (RuntimeException unreachable) {
                return;
            }
            if (Math.abs(skew) < 1_000) {
                return;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException("the clock shift of " + offset + " did not reach " + server.get()
                        + ": its clock is " + skew + " ms off the shifted time");
            }
            ServerProbes.sleepQuietly(Duration.ofMillis(5));
        }
    }

    /** The server's {@code TIME}, in Unix milliseconds. */
    private static long clockMillis(RedisCommands<String, String> redis) {
        java.util.List<String> time = redis.time();
        return Long.parseLong(time.get(0)) * 1_000 + Long.parseLong(time.get(1)) / 1_000;
    }

    /** {@code CLIENT PAUSE ms WRITE}. */
    static String pauseWrites(RedisCommands<String, String> redis, Duration pause) {
        return redis.dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).add("PAUSE").add(pause.toMillis()).add("WRITE"));
    }

    /** {@code CLIENT UNPAUSE}: ends a {@link #pauseWrites} before its time. */
    static String unpause(RedisCommands<String, String> redis) {
        return redis.dispatch(CommandType.CLIENT, new StatusOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).add("UNPAUSE"));
    }

    /** {@code DEBUG SLEEP seconds}: blocks the server's only thread, and so this call, for {@code stall}. */
    static String debugSleep(RedisCommands<String, String> redis, Duration stall) {
        String seconds = String.format(Locale.ROOT, "%.3f", stall.toMillis() / 1000.0);
        return redis.dispatch(CommandType.DEBUG, new StatusOutput<>(StringCodec.UTF8),
                new CommandArgs<>(StringCodec.UTF8).add("SLEEP").add(seconds));
    }

    /** {@code maxmemory-policy allkeys-lru} and {@code maxmemory}. */
    /** How often the server ran {@code command} (e.g. {@code evalsha}, {@code pubsub|numsub}) since its statistics were reset. */
    static long calls(RedisCommands<String, String> redis, String command) {
        String stat = "cmdstat_" + command + ":calls=";
        return redis.info("commandstats").lines().filter(line -> line.startsWith(stat)).findFirst()
                .map(line -> Long.parseLong(line.substring(stat.length(), line.indexOf(',', stat.length()))))
                .orElse(0L);
    }

    static String evictAnyKeyAbove(RedisCommands<String, String> redis, long maxmemoryBytes) {
        redis.configSet("maxmemory-policy", "allkeys-lru");
        return redis.configSet("maxmemory", Long.toString(maxmemoryBytes));
    }

}
