package io.redlock.bench;

import io.lettuce.core.cluster.SlotHash;
import io.redlock.Redlock;
import io.redlock.RedlockConfig;
import io.redlock.testkit.RedisCluster;
import io.redlock.testkit.RedisClusters;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * The CPU cost of a lock on a shard: the same load (acquire and release of distinct resources, fenced, {@code
 * inFlight} at once) on quorum members that are single servers, then on members that are Redis Clusters of
 * {@code shards} masters, alternating for {@code rounds} rounds. For every server: its CPU time (from /proc) divided
 * by the lock pairs it served, and its script calls per pair (how well its operations were batched). A server serves
 * every pair; a shard the pairs whose
 * resource hashes to its slots (counted by the load itself). What a member can carry is computed from these costs in
 * docs/SCALING.md, not measured: one box of 2 cores cannot run shards side by side at full speed.
 */
final class ScalingCheck {

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final Duration COUNTER_TTL = Duration.ofSeconds(30);
    /** Generous: the check measures CPU per pair, and a node slowed by the shared machine should not fail a pair. */
    private static final Duration NODE_TIMEOUT = Duration.ofMillis(250);

    private ScalingCheck() {
    }

    /** One phase: pairs done, and for each server its CPU µs and script calls per pair it served. */
    record Phase(String kind, int round, long pairs, long errors, Duration took, List<Double> cpuMicrosPerPair,
            List<Double> scriptCallsPerPair, double clientCpuMicrosPerPair) {

        double pairsPerSecond() {
            return pairs / (took.toNanos() / 1e9);
        }

        double meanCpuMicrosPerPair() {
            return cpuMicrosPerPair.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        }
    }

    record Result(int members, int shards, int inFlight, Duration window, List<Phase> phases) {

        List<Phase> of(String kind) {
            return phases.stream().filter(p -> p.kind().equals(kind)).toList();
        }
    }

    static Result run(BenchConfig.ScalingSettings s, Consumer<String> out) throws Exception {
        List<Phase> phases = new ArrayList<>();
        try (RedisNodes servers = RedisNodes.start(s.members());
                RedisClusters clusters = RedisClusters.start(s.members(), s.shards())) {
            List<String> members = clusters.clusters().stream().map(c -> RedlockConfig.clusterMember(c.seedUris()))
                    .toList();
            for (int round = 1; round <= s.rounds(); round++) {
                phases.add(phase("server", round, servers.uris(), servers.servers(), null, s, out));
                phases.add(phase("cluster shard", round, members, clusters.servers(), clusters.get(0), s, out));
            }
        }
        return new Result(s.members(), s.shards(), s.inFlight(), s.window(), phases);
    }

    /**
     * Runs the load for one window. {@code cluster}: the first member's cluster when the members are clusters (all
     * split their slots alike), to count each shard's pairs; null when every server serves every pair.
     */
    private static Phase phase(String kind, int round, List<String> uris, List<RedisServer> measured,
            RedisCluster cluster, BenchConfig.ScalingSettings s, Consumer<String> out) throws Exception {
        int shards = cluster == null ? 1 : cluster.nodes().size();
        LongAdder[] pairsByShard = IntStream.range(0, shards).mapToObj(i -> new LongAdder()).toArray(LongAdder[]::new);
        LongAdder errors = new LongAdder();
        try (Redlock redlock = Redlock.builder().nodes(uris).nodeTimeout(NODE_TIMEOUT).fenceCounterTtl(COUNTER_TTL)
                .build()) {
            load(redlock, kind + " warm-up " + round, s.inFlight(), s.window().dividedBy(4), cluster, pairsByShard,
                    errors); // connections, scripts, JIT
            for (LongAdder adder : pairsByShard) {
                adder.reset();
            }
            errors.reset();
            CpuMeter[] meters = measured.stream().map(server -> new CpuMeter(List.of(server.pid())))
                    .toArray(CpuMeter[]::new);
            List<CpuMeter.Sample> before = new ArrayList<>();
            for (CpuMeter meter : meters) {
                before.add(meter.sample());
            }
            List<Long> callsBefore = measured.stream().map(ScalingCheck::scriptCalls).toList();
            long start = System.nanoTime();
            load(redlock, kind + " " + round, s.inFlight(), s.window(), cluster, pairsByShard, errors);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            List<Double> cpu = new ArrayList<>();
            List<Double> calls = new ArrayList<>();
            long pairs = 0;
            for (LongAdder adder : pairsByShard) {
                pairs += adder.sum();
            }
            double clientMicros = (meters[0].sample().clientNanos() - before.get(0).clientNanos()) / 1e3 / pairs;
            for (int i = 0; i < meters.length; i++) {
                long served = pairsByShard[i % shards].sum();
                cpu.add((meters[i].sample().serverNanos() - before.get(i).serverNanos()) / 1e3 / served);
                calls.add((double) (scriptCalls(measured.get(i)) - callsBefore.get(i)) / served);
            }
            Phase phase = new Phase(kind, round, pairs, errors.sum(), took, cpu, calls, clientMicros);
            out.accept(String.format("%s, round %d: %,d pairs in %.1f s (%,.0f/s), %d errors; CPU µs per pair it served"
                    + " per server %s; script calls per pair %s; client CPU µs per pair %.0f", kind, round, pairs,
                    took.toNanos() / 1e9, phase.pairsPerSecond(), errors.sum(), rounded(cpu), rounded(calls),
                    clientMicros));
            return phase;
        }
    }

    /** Acquire-and-release pairs of distinct resources, {@code inFlight} at once, for {@code window}. */
    private static void load(Redlock redlock, String name, int inFlight, Duration window, RedisCluster cluster,
            LongAdder[] pairsByShard, LongAdder errors) throws Exception {
        Semaphore slots = new Semaphore(inFlight);
        long end = System.nanoTime() + window.toNanos();
        for (long i = 0; System.nanoTime() < end; i++) {
            slots.acquire();
            String resource = "scale:" + name + ":" + i;
            int shard = cluster == null ? 0 : cluster.formedOwnerOf(SlotHash.getSlot(resource));
            redlock.tryAcquireAsync(resource, TTL).toCompletableFuture()
                    .thenCompose(lease -> lease.map(l -> l.releaseAsync().toCompletableFuture()
                            .thenApply(released -> true)).orElse(CompletableFuture.completedFuture(false)))
                    .whenComplete((acquired, failure) -> {
                        if (failure != null || !acquired) {
                            errors.increment();
                        } else {
                            pairsByShard[shard].increment();
                        }
                        slots.release();
                    });
        }
        if (!slots.tryAcquire(inFlight, 60, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + ": pairs still in flight after 60 s");
        }
    }

    /**
     * The script calls the server ran so far: EVALSHA and EVAL (INFO commandstats; the commands a script runs are
     * counted there too, so all commands would not show the batching).
     */
    private static long scriptCalls(RedisServer server) {
        return server.redis(r -> r.info("commandstats")).lines()
                .filter(l -> l.startsWith("cmdstat_evalsha:") || l.startsWith("cmdstat_eval:"))
                .mapToLong(l -> Long.parseLong(l.replaceAll("^cmdstat_[^:]+:calls=(\\d+),.*", "$1"))).sum();
    }

    private static String rounded(List<Double> values) {
        return values.stream().map(v -> String.format("%.1f", v)).toList().toString();
    }
}
