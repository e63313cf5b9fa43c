package io.redlock.faults;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** What each node holds of the workers' keys, for the message of a row that failed: each key's content and PTTL. */
final class NodeDump {

    private NodeDump() {
    }

    /** One line per node: its address, then each key with {@code prefix}, its content and PTTL; or why not. */
    static String of(RedisNodes nodes, String prefix) {
        StringBuilder out = new StringBuilder();
        for (RedisServer node : nodes) {
            out.append("\n  ").append(node.address()).append(": ");
            try {
                String held = node.redis(r -> {
                    List<String> keys = new ArrayList<>();
                    for (String key : new TreeSet<>(r.keys(prefix + "*"))) {
                        String content = switch (r.type(key)) {
                            case "string" -> r.get(key);
                            case "zset" -> r.zrangeWithScores(key, 0, 9).toString();
                            case "hash" -> r.hgetall(key).toString();
                            default -> r.type(key);
                        };
                        keys.add(key + "=" + content + " (pttl " + r.pttl(key) + ")");
                    }
                    return keys.isEmpty() ? "no key" : String.join(", ", keys);
                });
                out.append(held);
            } catch (RuntimeException e) {
                out.append("not readable: ").append(e.getClass().getSimpleName()).append(' ').append(e.getMessage());
            }
        }
        return out.toString();
    }
}
