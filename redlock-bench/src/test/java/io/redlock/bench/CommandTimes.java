package io.redlock.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time one node spent in each command since the last {@link #reset()}, as the node counts it ({@code INFO
 * commandstats}: a script call's time includes its own commands, which are counted under their names too). One kept
 * connection. Read only between phases: a read between two calls, or the slow log with no threshold (which logs a
 * script's own commands while the script's time runs), would change what is measured.
 */
final class CommandTimes implements AutoCloseable {

    private static final Pattern STAT = Pattern.compile("cmdstat_([a-z|]+):calls=(\\d+),usec=(\\d+)");

    private final StatefulRedisConnection<String, String> connection;

    CommandTimes(RedisClient client, String uri) {
        this.connection = client.connect(RedisURI.create(uri));
    }

    /** Forgets the counts so far. */
    void reset() {
        connection.sync().configResetstat();
    }

    /** µs each node spent in {@code commands} together per operation of the phase just run. */
    static List<Double> perOperation(List<CommandTimes> times, int operations, String... commands) {
        return times.stream().map(node -> {
            Map<String, Long> micros = node.read();
            return Arrays.stream(commands).mapToLong(command -> micros.getOrDefault(command, 0L)).sum()
                    / (double) operations;
        }).toList();
    }

    private Map<String, Long> read() {
        String info = connection.sync().info("commandstats");
        Map<String, Long> micros = new HashMap<>();
        Matcher stat = STAT.matcher(info);
        while (stat.find()) {
            micros.put(stat.group(1), Long.parseLong(stat.group(3)));
        }
        return micros;
    }

    @Override
    public void close() {
        connection.close();
    }
}
