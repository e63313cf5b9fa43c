package io.redlock.cli;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.redlock.Secrets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * What the doctor measures itself on one node, because core's {@link io.redlock.NodeReport} does not carry it: PING
 * latency percentiles, the node's clock against this machine's, and whether scripts may run (EVAL, SCRIPT LOAD and
 * EVALSHA, as the library uses them). Everything else (version, role, cluster mode, eviction, persistence, run_id) is
 * core's {@link io.redlock.Inspection}. Uses a connection of its own with a 1 s timeout, to the node as core parsed it.
 */
final class NodeProbe {

    static final int PINGS = 20;
    private static final String PROBE_SCRIPT = "return 1";

    final String node;
    final String problem;
    final long p50Micros;
    final long p99Micros;
    final long clockOffsetMillis;
    final String scripting;

    private NodeProbe(String node, String problem, long p50Micros, long p99Micros, long clockOffsetMillis,
            String scripting) {
        this.node = node;
        this.problem = problem;
        this.p50Micros = p50Micros;
        this.p99Micros = p99Micros;
        this.clockOffsetMillis = clockOffsetMillis;
        this.scripting = scripting;
    }

    static NodeProbe probe(RedisClient client, RedisURI uri, String node) {
        RedisURI redisUri = RedisURI.builder(uri).withTimeout(Duration.ofSeconds(1)).build();
        try (StatefulRedisConnection<String, String> connection = client.connect(redisUri)) {
            RedisCommands<String, String> redis = connection.sync();
            long[] rtt = new long[PINGS];
            for (int i = 0; i < PINGS; i++) {
                long start = System.nanoTime();
                redis.ping();
                rtt[i] = (System.nanoTime() - start) / 1_000;
            }
            Arrays.sort(rtt);
            long before = System.currentTimeMillis();
            List<String> time = redis.time();
            long after = System.currentTimeMillis();
            long nodeMillis = Long.parseLong(time.get(0)) * 1_000 + Long.parseLong(time.get(1)) / 1_000;
            long offset = nodeMillis - (before + after) / 2;
            String scripting = scripting(redis);
            return new NodeProbe(node, null, rtt[PINGS / 2], rtt[PINGS - 1], offset, scripting);
        } catch (RuntimeException e) {
            Throwable root = e;
            while (root.getCause() != null) {
                root = root.getCause();
            }
            return new NodeProbe(node, Secrets.mask(e.getMessage() + (root != e ? ": " + root.getMessage() : "")), 0,
                    0, 0, null);
        }
    }

    /**
     * Null if the node runs scripts the way the library sends them (EVALSHA of a loaded script, EVAL as the
     * fallback), else which command was refused and why.
     */
    private static String scripting(RedisCommands<String, String> redis) {
        String step = "EVAL";
        try {
            Long one = redis.eval(PROBE_SCRIPT, ScriptOutputType.INTEGER);
            if (one == null || one != 1L) {
                return "EVAL returned " + one;
            }
            step = "SCRIPT LOAD";
            String sha = redis.scriptLoad(PROBE_SCRIPT);
            step = "EVALSHA";
            one = redis.evalsha(sha, ScriptOutputType.INTEGER);
            return one != null && one == 1L ? null : "EVALSHA returned " + one;
        } catch (RuntimeException e) {
            return step + " refused: " + Secrets.mask(String.valueOf(e.getMessage()));
        }
    }

    boolean reachable() {
        return problem == null;
    }
}
