package io.redlock.bench;

import io.redlock.testkit.RedisServer;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The time one node spent in each command since the last {@link #reset()}, as the node counts it ({@code INFO
 * commandstats}: a script call's time includes its own commands, which are counted under their names too).
 */
final class CommandTimes {

    private static final Pattern STAT = Pattern.compile("cmdstat_([a-z|]+):calls=(\\d+),usec=(\\d+)");

    private final RedisServer node;

    CommandTimes(RedisServer node) {
        this.node = node;
    }

    /** Forgets the counts so far. */
    void reset() {
        node.redis(redis -> redis.configResetstat());
    }

    /** Microseconds spent in {@code command} (lower case, e.g. {@code evalsha}) since the last reset. */
    long micros(String command) {
        return read().getOrDefault(command, 0L);
    }

    private Map<String, Long> read() {
        String info = node.redis(redis -> redis.info("commandstats"));
        Map<String, Long> micros = new HashMap<>();
        Matcher stat = STAT.matcher(info);
        while (stat.find()) {
            micros.put(stat.group(1), Long.parseLong(stat.group(3)));
        }
        return micros;
    }
}
