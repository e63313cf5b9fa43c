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
import java.util.function.Supplier;

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

    static final String FENCED_ACQUIRE = "fenced acquire";

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final String RESOURCE = "cost:one";

    /**
     * One operation's cost in one round: µs per call on each node, and its floor's. A fenced acquire's is the difference
     * of two phases ({@link #derived()}), which a busy machine can make negative on a short run; the others are counted.
     */
    record Cost(String operation, String floor, List<Double> micros, List<Double> floorMicros) {

        boolean derived() {
            return operation.equals(FENCED_ACQUIRE);
        }

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
                library.putAll(library(nodes, times, pairs, false, null));
                library.putAll(library(nodes, times, pairs, true, library.get("release")));
                Map<String, List<Double>> floor = floors.run(times, pairs);
                List<Cost> costs = List.of(
                        new Cost(FENCED_ACQUIRE, "SET NX PX + INCR script", library.get("fenced acquire"),
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
                costs = new ArrayList<>(costs);
                for (String fenced : List.of("fenced ", "")) {
                    Map<String, List<Double>> kinds = kinds(nodes, times, pairs, !fenced.isEmpty());
                    for (String kind : PairKinds.KINDS) {
                        costs.add(new Cost(fenced + kind + " pair", "the library's " + fenced + "pair",
                                kinds.get(kind), library.get(fenced + "pair")));
                    }
                }
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
     * and the acquire is what the pairs' scripts cost beyond {@code release}, measured without fencing (the same
     * script, on a resource nobody waits for): an estimate, the difference of two phases. A pair is what the nodes
     * spent on an acquire and its release together, measured directly.
     */
    private static Map<String, List<Double>> library(RedisNodes nodes, List<CommandTimes> times, int pairs,
            boolean fencing, List<Double> release) {
        String prefix = fencing ? "fenced " : "";
        Map<String, List<Double>> costs = new LinkedHashMap<>();
        try (Redlock redlock = Redlock.builder().nodes(nodes.uris()).fencing(fencing)
                .nodeTimeout(RedlockContestant.NODE_TIMEOUT).build()) {
            pairs(times, pairs, () -> redlock.tryAcquire(RESOURCE, TTL).orElseThrow()::release);
            if (fencing) {
                List<Double> pair = CommandTimes.perOperation(times, pairs, "evalsha");
                costs.put(prefix + "acquire", minus(pair, release));
                costs.put(prefix + "release", release);
                costs.put(prefix + "pair", pair);
            } else {
                costs.put("acquire", CommandTimes.perOperation(times, pairs, "set"));
                costs.put("release", CommandTimes.perOperation(times, pairs, "evalsha"));
                costs.put("pair", CommandTimes.perOperation(times, pairs, "set", "evalsha"));
            }
            Lease lease = redlock.tryAcquire(RESOURCE, TTL).orElseThrow();
            times.forEach(CommandTimes::reset);
            for (int i = 0; i < pairs; i++) {
                if (!lease.extend(TTL)) {
                    throw new IllegalStateException("an extension was refused");
                }
            }
            costs.put(prefix + "extend", CommandTimes.perOperation(times, pairs, "evalsha"));
            lease.release();
        }
        return costs;
    }

    /**
     * The other kinds' pairs (acquire and release, both scripts), µs per pair on each node, each a phase on one
     * resource (two for the lock of several): a read lease, a permit of a semaphore of 2, a lock of 2 resources.
     */
    private static Map<String, List<Double>> kinds(RedisNodes nodes, List<CommandTimes> times, int pairs,
            boolean fencing) {
        Map<String, List<Double>> costs = new LinkedHashMap<>();
        try (Redlock redlock = Redlock.builder().nodes(nodes.uris()).fencing(fencing)
                .nodeTimeout(RedlockContestant.NODE_TIMEOUT).build()) {
            Map<String, Supplier<Runnable>> kinds = PairKinds.of(redlock, "cost", TTL);
            for (String kind : PairKinds.KINDS) {
                pairs(times, pairs, kinds.get(kind));
                costs.put(kind, CommandTimes.perOperation(times, pairs, "evalsha"));
            }
        }
        return costs;
    }

    /** A warm-up of a tenth of {@code pairs}, then the nodes' counts reset, then {@code pairs} pairs. */
    private static void pairs(List<CommandTimes> times, int pairs, Supplier<Runnable> acquire) {
        for (int i = 0; i < pairs / 10; i++) { // warm: scripts loaded, hot path compiled
            acquire.get().run();
        }
        times.forEach(CommandTimes::reset);
        for (int i = 0; i < pairs; i++) {
            acquire.get().run();
        }
    }

    private static List<Double> minus(List<Double> a, List<Double> b) {
        List<Double> difference = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            difference.add(a.get(i) - b.get(i));
        }
        return difference;
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
            costs.put("acquire", CommandTimes.perOperation(times, pairs, "set"));
            costs.put("release", CommandTimes.perOperation(times, pairs, "evalsha"));
            times.forEach(CommandTimes::reset);
            for (int i = 0; i < pairs; i++) {
                all(node -> node.evalsha(fencedAcquire, ScriptOutputType.INTEGER, keys, value,
                        Long.toString(TTL.toMillis())));
                all(node -> node.evalsha(release, ScriptOutputType.INTEGER, new String[] {RESOURCE}, value));
            }
            costs.put("fenced acquire",
                    minus(CommandTimes.perOperation(times, pairs, "evalsha"), costs.get("release")));
            all(node -> node.set(RESOURCE, value, SetArgs.Builder.px(TTL.toMillis())));
            times.forEach(CommandTimes::reset);
            for (int i = 0; i < pairs; i++) {
                all(node -> node.evalsha(extend, ScriptOutputType.INTEGER, new String[] {RESOURCE}, value,
                        Long.toString(TTL.toMillis())));
            }
            costs.put("extend", CommandTimes.perOperation(times, pairs, "evalsha"));
            all(node -> node.del(keys));
            return costs;
        }

        private void all(java.util.function.Function<RedisAsyncCommands<String, String>,
                java.util.concurrent.CompletionStage<?>> command) {
            CompletableFuture.allOf(nodes.stream().map(node -> command.apply(node).toCompletableFuture())
                    .toArray(CompletableFuture[]::new)).orTimeout(10, TimeUnit.SECONDS).join();
        }

        @Override
        public void close() {
            connections.forEach(StatefulRedisConnection::close);
        }
    }
}
