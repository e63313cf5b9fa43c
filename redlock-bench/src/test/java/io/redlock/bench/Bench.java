package io.redlock.bench;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** Runs the benchmarks on 5 fresh local nodes, prints the tables and writes results and charts. */
final class Bench {

    /** The nodes every run starts. */
    static final int NODES = 5;

    private Bench() {
    }

    /**
     * The side-by-side run, then the contended scenario (for the selected contestants that have one), then the kinds
     * of lock, all on the same nodes.
     */
    static BenchReport run(BenchConfig config, Consumer<String> out) {
        try (RedisNodes nodes = RedisNodes.start(NODES)) {
            String environment = Environment.describe(nodes);
            out.accept(environment);
            CpuMeter cpu = new CpuMeter(nodes.servers().stream().map(RedisServer::pid).toList());
            List<LevelResult> levels = sideBySide(config, nodes.uris(), cpu, out);
            List<ContendedResult> contended = config.contended() ? contended(config, nodes.uris(), out) : List.of();
            List<Kinds.Result> kinds = config.kinds().enabled() ? Kinds.run(config, nodes.uris(), cpu, out) : List.of();
            out.accept("\n" + Tables.sideBySide(levels).plain());
            if (!contended.isEmpty()) {
                out.accept(Tables.contended(contended).plain());
            }
            List<Path> charts = Charts.write(levels, config.out());
            Path results = ResultsFile.sideBySide(config, environment, levels, contended, charts);
            out.accept("wrote " + results + " and " + charts.size() + " charts");
            Path kindsFile = kinds.isEmpty() ? null : writeKinds(config, environment, kinds, out);
            return new BenchReport(levels, contended, kinds, results, kindsFile, charts);
        }
    }

    /** The kinds of lock alone, on fresh nodes. */
    static List<Kinds.Result> kinds(BenchConfig config, Consumer<String> out) throws Exception {
        return onFreshNodes(out, (nodes, environment) -> {
            CpuMeter cpu = new CpuMeter(nodes.servers().stream().map(RedisServer::pid).toList());
            List<Kinds.Result> kinds = Kinds.run(config, nodes.uris(), cpu, out);
            writeKinds(config, environment, kinds, out);
            return kinds;
        });
    }

    private static Path writeKinds(BenchConfig config, String environment, List<Kinds.Result> kinds,
            Consumer<String> out) {
        out.accept("\n" + Tables.kinds(kinds).plain());
        Path file = ResultsFile.kinds(config, environment, kinds);
        out.accept("wrote " + file);
        return file;
    }

    /** The heap check of redlock-java (fenced). */
    static HeapResult heap(BenchConfig config, Consumer<String> out) {
        try (RedisNodes nodes = RedisNodes.start(NODES);
             Contestant fenced = Contestants.create("fenced", nodes.uris())) {
            String environment = Environment.describe(nodes);
            out.accept(environment);
            HeapResult result = HeapCheck.run(fenced, config.heap(), out);
            out.accept("\n" + Tables.heap(result).plain());
            out.accept(String.format("growth %+,d KiB, bound +%,d KiB: %s; errors %d%s; wrote %s",
                    result.growthBytes() >> 10, result.boundBytes() >> 10,
                    result.bounded() ? "bounded" : "NOT bounded", result.errors(),
                    result.errors() == 0 ? "" : " (first: " + result.firstError() + ")",
                    ResultsFile.heap(config.out(), environment, result)));
            return result;
        }
    }

    /** The fencing counter check. */
    static CounterCheck.Result counters(BenchConfig config, Consumer<String> out) throws Exception {
        return onFreshNodes(out, (nodes, environment) -> {
            CounterCheck.Result result = CounterCheck.run(nodes, config.counters(), out);
            out.accept("wrote " + ResultsFile.counters(config.out(), environment, result));
            return result;
        });
    }

    /** The many-leases check. */
    static LeaseCheck.Result leases(BenchConfig config, Consumer<String> out) throws Exception {
        return onFreshNodes(out, (nodes, environment) -> {
            LeaseCheck.Result result = LeaseCheck.run(nodes, config.leases(), out);
            out.accept("wrote " + ResultsFile.leases(config.out(), environment, result));
            return result;
        });
    }

    /** The per-call instruction count: one node of its own, under callgrind. */
    static InstructionCheck.Result instructions(BenchConfig config, Consumer<String> out) throws Exception {
        InstructionCheck.Result result = InstructionCheck.run(config.calls().pairs(), out);
        out.accept("wrote " + ResultsFile.instructions(config.out(), Environment.machine(), result));
        return result;
    }

    /** The per-call cost check: nodes of its own. */
    static CallCostCheck.Result calls(BenchConfig config, Consumer<String> out) throws Exception {
        return onFreshNodes(out, (nodes, environment) -> {
            CallCostCheck.Result result = CallCostCheck.run(nodes, config.calls().pairs(), config.calls().rounds(), out);
            out.accept("wrote " + ResultsFile.calls(config.out(), environment, result));
            return result;
        });
    }

    /** The shard cost check: servers and clusters of its own. */
    static ScalingCheck.Result scaling(BenchConfig config, Consumer<String> out) throws Exception {
        ScalingCheck.Result result = ScalingCheck.run(config.scaling(), out);
        out.accept("wrote " + ResultsFile.scaling(config.out(), Environment.machine(), result));
        return result;
    }

    /** A check on nodes of its own, told the environment it ran in. */
    private interface Check<R> {
        R run(RedisNodes nodes, String environment) throws Exception;
    }

    private static <R> R onFreshNodes(Consumer<String> out, Check<R> check) throws Exception {
        try (RedisNodes nodes = RedisNodes.start(NODES)) {
            String environment = Environment.describe(nodes);
            out.accept(environment);
            return check.run(nodes, environment);
        }
    }

    private static List<LevelResult> sideBySide(BenchConfig config, List<String> uris, CpuMeter cpu,
            Consumer<String> out) {
        List<Contestant> contestants = new ArrayList<>();
        try {
            config.contestants().forEach(id -> contestants.add(Contestants.create(id, uris)));
            return new Harness(contestants, out, cpu).run(config.jit(), config.levels(), config.rounds(), config.warmup(),
                    config.window());
        } finally {
            contestants.forEach(Contestant::close);
        }
    }

    private static List<ContendedResult> contended(BenchConfig config, List<String> uris, Consumer<String> out) {
        List<ContendedResult> results = new ArrayList<>();
        for (int clients : config.contendedClients()) {
            if (config.contestants().contains("fenced")) {
                results.add(contended(config, clients, "redlock-java (fenced)", "fenced",
                        () -> new RedlockLockClient(uris), out));
            }
            if (config.contestants().contains("redisson")) {
                results.add(contended(config, clients, "Redisson RLock (1 node)", "redisson",
                        () -> new RedissonLockClient(uris.get(0)), out));
            }
        }
        return results;
    }

    private static ContendedResult contended(BenchConfig config, int count, String name, String id,
            Supplier<LockClient> client, Consumer<String> out) {
        List<LockClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                clients.add(client.get());
            }
            ContendedResult result = Contended.run(name, clients, "bench:contended:" + id,
                    config.contendedWarmup(), config.contendedWindow());
            out.accept(String.format("contended, %d clients, %-26s %.1f acquisitions/s, wait p50 %.1f ms, p99 %.1f ms, "
                    + "timeouts %d", count, name, result.acquisitionsPerSecond(), result.waitP50Micros() / 1000.0,
                    result.waitP99Micros() / 1000.0, result.timeouts()));
            return result;
        } finally {
            clients.forEach(LockClient::close);
        }
    }
}
