package io.redlock.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time one node spent in each command since the last {@link #reset()}, as the node counts it ({@code INFO
 * commandstats}: a script call's time includes its own commands, which are counted under their names too). Reads go
 * over one kept connection, so a read between two operations costs the node one {@code INFO} and nothing else.
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

    /** Microseconds spent in {@code command} (lower case, e.g. {@code evalsha}) since the last reset. */
    long micros(String command) {
        return read().getOrDefault(command, 0L);
    }

    /** µs each node spent in {@code command} per operation of the phase just run. */
    static List<Double> perOperation(List<CommandTimes> times, String command, int operations) {
        return times.stream().map(node -> (double) node.micros(command) / operations).toList();
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

    /**
     * Time in one command split between the steps of a phase whose steps all run it (a fenced acquire and a release
     * are both {@code EVALSHA}): each {@link #lap} charges what every node spent since the previous lap to a step.
     */
    static final class Laps {

        private final List<CommandTimes> nodes;
        private final String command;
        private final long[] last;
        private final Map<String, long[]> spent = new HashMap<>();

        Laps(List<CommandTimes> nodes, String command) {
            this.nodes = nodes;
            this.command = command;
            this.last = nodes.stream().mapToLong(node -> node.micros(command)).toArray();
        }

        /** Charges each node's time in the command since the last lap to {@code step}. */
        void lap(String step) {
            long[] sum = spent.computeIfAbsent(step, s -> new long[nodes.size()]);
            for (int i = 0; i < last.length; i++) {
                long now = nodes.get(i).micros(command);
                sum[i] += now - last[i];
                last[i] = now;
            }
        }

        /** µs each node spent per operation of {@code step}. */
        List<Double> perOperation(String step, int operations) {
            long[] sum = spent.getOrDefault(step, new long[nodes.size()]);
            return java.util.Arrays.stream(sum).mapToObj(micros -> (double) micros / operations).toList();
        }
    }
}
