package io.redlock.bench;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * What one lock operation costs each node, the pattern most users have: one caller taking and releasing the same
 * resource again and again, one operation in flight. The nodes time their commands ({@link CommandTimes}); each
 * operation of redlock-java (fenced and not) is set beside the smallest script or command
 * that does its job, run the same way on the same nodes in the same round. Rounds alternate library and floors.
 */
final class CallCostCheck {

    static final String RELEASE_FLOOR =
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
    static final String FENCED_ACQUIRE_FLOOR = "if redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then"
            + " return redis.call('incr', KEYS[2]) end return 0";
    static final String EXTEND_FLOOR =
            "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end return 0";

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final String RESOURCE = "cost:one";

    /** One operation's cost in one round: µs per call on each node, and its floor's. */
    record Cost(String operation, String floor, List<Double> micros, List<Double> floorMicros) {

        double mean() {
            return micros.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        }

        double floorMean() {
            return floorMicros.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        }

        double ratio() {
            return mean() / floorMean();
        }
    }

    record Result(int pairs, int rounds, List<List<Cost>> byRound) {
    }

    private CallCostCheck() {
    }

    static Result run(RedisNodes nodes, int pairs, int rounds, Consumer<String> out) throws Exception {
        RedisClient client = RedisClient.create();
        List<CommandTimes> times = nodes.uris().stream().map(uri -> new CommandTimes(client, uri)).toList();
        List<List<Cost>> byRound = new ArrayList<>();
        try (Floors floors = new Floors(client, nodes.uris())) {
            for (int round = 1; round <= rounds; round++) {
                Map<String, List<Double>> library = new LinkedHashMap<>();
                library.putAll(library(nodes, times, pairs, false));
                library.putAll(library(nodes, times, pairs, true));
                Map<String, List<Double>> floor = floors.run(times, pairs);
                List<Cost> costs = List.of(
                        new Cost("fenced acquire", "SET NX PX + INCR script", library.get("fenced acquire"),
                                floor.get("fenced acquire")),
                        new Cost("fenced release", "get == value then DEL script", library.get("fenced release"),
                                floor.get("release")),
                        new Cost("fenced extend", "get == value then PEXPIRE script", library.get("fenced extend"),
                                floor.get("extend")),
                        new Cost("acquire", "SET NX PX", library.get("acquire"), floor.get("acquire")),
                        new Cost("release", "get == value then DEL script", library.get("release"),
                                floor.get("release")),
                        new Cost("extend", "get == value then PEXPIRE script", library.get("extend"),
                                floor.get("extend")));
                for (Cost cost : costs) {
                    out.accept(String.format("round %d/%d  %-15s %6.2f µs per call   floor %6.2f µs   %.2fx", round,
                            rounds, cost.operation(), cost.mean(), cost.floorMean(), cost.ratio()));
                }
                byRound.add(costs);
            }
        } finally {
            times.forEach(CommandTimes::close);
            client.shutdown();
        }
        return new Result(pairs, rounds, byRound);
    }

    /**
     * The library's operations, µs per operation on each node: pairs on one resource, then extensions of one lease.
     * Without fencing the acquire is a {@code SET} and the release the only script; with fencing both are scripts,
     * told apart by reading the nodes' times between the two ({@link CommandTimes.Laps}).
     */
    private static Map<String, List<Double>> library(RedisNodes nodes, List<CommandTimes> times, int pairs,
            boolean fencing) {
        String prefix = fencing ? "fenced " : "";
        Map<String, List<Double>> costs = new LinkedHashMap<>();
        try (Redlock redlock = Redlock.builder().nodes(nodes.uris()).fencing(fencing)
                .nodeTimeout(RedlockContestant.NODE_TIMEOUT).build()) {
            for (int i = 0; i < pairs / 10; i++) { // warm: scripts loaded, hot path compiled
                redlock.tryAcquire(RESOURCE, TTL).orElseThrow().release();
            }
            if (fencing) {
                CommandTimes.Laps laps = new CommandTimes.Laps(times, "evalsha");
                for (int i = 0; i < pairs; i++) {
                    Lease lease = redlock.tryAcquire(RESOURCE, TTL).orElseThrow();
                    laps.lap("acquire");
                    lease.release();
                    laps.lap("release");
                }
                costs.put(prefix + "acquire", laps.perOperation("acquire", pairs));
                costs.put(prefix + "release", laps.perOperation("release", pairs));
            } else {
                times.forEach(CommandTimes::reset);
                for (int i = 0; i < pairs; i++) {
                    redlock.tryAcquire(RESOURCE, TTL).orElseThrow().release();
                }
                costs.put("acquire", CommandTimes.perOperation(times, "set", pairs));
                costs.put("release", CommandTimes.perOperation(times, "evalsha", pairs));
            }
            Lease lease = redlock.tryAcquire(RESOURCE, TTL).orElseThrow();
            times.forEach(CommandTimes::reset);
            for (int i = 0; i < pairs; i++) {
                if (!lease.extend(TTL)) {
                    throw new IllegalStateException("an extension was refused");
                }
            }
            costs.put(prefix + "extend", CommandTimes.perOperation(times, "evalsha", pairs));
            lease.release();
        }
        return costs;
    }

    /** The smallest scripts that do each job, by bare Lettuce, one command to every node at once, as Redlock does. */
    private static final class Floors implements AutoCloseable {

        private final List<StatefulRedisConnection<String, String>> connections;
        private final List<RedisAsyncCommands<String, String>> nodes;
        private final String release;
        private final String fencedAcquire;
        private final String extend;

        Floors(RedisClient client, List<String> uris) {
            connections = uris.stream().map(uri -> client.connect(RedisURI.create(uri))).toList();
            nodes = connections.stream().map(StatefulRedisConnection::async).toList();
            release = load(RELEASE_FLOOR);
            fencedAcquire = load(FENCED_ACQUIRE_FLOOR);
            extend = load(EXTEND_FLOOR);
        }

        private String load(String script) {
            return connections.stream().map(c -> c.sync().scriptLoad(script)).toList().get(0);
        }

        Map<String, List<Double>> run(List<CommandTimes> times, int pairs) throws Exception {
            Map<String, List<Double>> costs = new LinkedHashMap<>();
            String value = "floor-value";
            String[] keys = {RESOURCE, RESOURCE + ":fence"};
            times.forEach(CommandTimes::reset);
            for (int i = 0; i < pairs; i++) {
                all(node -> node.set(RESOURCE, value, SetArgs.Builder.nx().px(TTL.toMillis())));
                all(node -> node.evalsha(release, ScriptOutputType.INTEGER, new String[] {RESOURCE}, value));
            }
            costs.put("acquire", CommandTimes.perOperation(times, "set", pairs));
            costs.put("release", CommandTimes.perOperation(times, "evalsha", pairs));
            CommandTimes.Laps laps = new CommandTimes.Laps(times, "evalsha");
            for (int i = 0; i < pairs; i++) {
                all(node -> node.evalsha(fencedAcquire, ScriptOutputType.INTEGER, keys, value,
                        Long.toString(TTL.toMillis())));
                laps.lap("fenced acquire");
                all(node -> node.evalsha(release, ScriptOutputType.INTEGER, new String[] {RESOURCE}, value));
                laps.lap("release");
            }
            costs.put("fenced acquire", laps.perOperation("fenced acquire", pairs));
            all(node -> node.set(RESOURCE, value, SetArgs.Builder.px(TTL.toMillis())));
            times.forEach(CommandTimes::reset);
            for (int i = 0; i < pairs; i++) {
                all(node -> node.evalsha(extend, ScriptOutputType.INTEGER, new String[] {RESOURCE}, value,
                        Long.toString(TTL.toMillis())));
            }
            costs.put("extend", CommandTimes.perOperation(times, "evalsha", pairs));
            all(node -> node.del(keys));
            return costs;
        }

        private void all(java.util.function.Function<RedisAsyncCommands<String, String>,
                java.util.concurrent.CompletionStage<?>> command) throws Exception {
            CompletableFuture.allOf(nodes.stream().map(node -> command.apply(node).toCompletableFuture())
                    .toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        }

        @Override
        public void close() {
            connections.forEach(StatefulRedisConnection::close);
        }
    }
}
