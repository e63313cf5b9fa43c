package io.redlock.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * What to run, from system properties (defaults in brackets):
 * {@code bench.jit} [5s: each contestant runs this long at 16 in flight before anything is measured, so the JIT has
 * compiled its hot path], {@code bench.rounds} [5], {@code bench.warmup} [1s], {@code bench.window} [2s],
 * {@code bench.levels}
 * [1,16,64,256], {@code bench.contestants} [all: fenced,unfenced,lettuce,redisson,redisson-redlock; on request also
 * fenced-blocking,unfenced-blocking,lettuce-blocking, measured with a caller thread per slot],
 * {@code bench.contended} [true], {@code bench.contended.clients} [16,64: one run per count],
 * {@code bench.contended.warmup} [2s], {@code bench.contended.window} [10s],
 * {@code bench.out} [docs/bench]; the heap check: {@code bench.heap} [false], {@code bench.heap.pairs} [1000000],
 * {@code bench.heap.every} [100000], {@code bench.heap.inflight} [64], {@code bench.heap.boundMb} [32]; the fencing
 * counter check: {@code bench.counters} [false], {@code bench.counters.resources} [1000000],
 * {@code bench.counters.warmup} [100000],
 * {@code bench.counters.horizon} [10s], {@code bench.counters.inflight} [64], {@code bench.counters.held} [100000],
 * {@code bench.counters.clearLimit} [5m]; the many-leases check: {@code bench.leases} [false],
 * {@code bench.leases.count} [100000], {@code bench.leases.ttl} [30s], {@code bench.leases.hold} [2m],
 * {@code bench.leases.inflight} [64]; the shard cost check: {@code bench.scaling} [false], {@code bench.scaling.members} [3],
 * {@code bench.scaling.shards} [3], {@code bench.scaling.rounds} [3], {@code bench.scaling.window} [20s],
 * {@code bench.scaling.inflight} [64]; the per-call cost check: {@code bench.calls} [false],
 * {@code bench.calls.pairs} [5000], {@code bench.calls.rounds} [3], {@code bench.calls.instructions} [false: true counts a
 * node's instructions under callgrind instead of timing five nodes]; the kinds of lock: {@code bench.kinds} [true: a section of the side-by-side run,
 * on its nodes, with its {@code bench.jit}, {@code bench.rounds}, {@code bench.warmup} and {@code bench.window}],
 * {@code bench.kinds.only} [false: true runs that section alone], {@code bench.kinds.nodes} [1,5: redlock-java's node
 * counts; Redisson's equivalents are single-master, on one node], {@code bench.kinds.contestants} [all; ids as the
 * progress lines show them, e.g. {@code lock-1,redisson-lock}], {@code bench.kinds.threads} [6],
 * {@code bench.kinds.several} [2: resources per lock of several], {@code bench.kinds.permits} [2],
 * {@code bench.kinds.hold} [1ms of work per hold], {@code bench.kinds.writerRest} [10ms],
 * {@code bench.kinds.maxWait} [2s].
 * Durations are written {@code 300ms}, {@code 2s} or {@code 1m}.
 */
record BenchConfig(Duration jit, int rounds, Duration warmup, Duration window, List<Integer> levels, List<String> contestants,
        boolean contended, List<Integer> contendedClients, Duration contendedWarmup, Duration contendedWindow, Path out, HeapSettings heap,
        CounterSettings counters, LeaseSettings leases, ScalingSettings scaling, CallSettings calls, KindSettings kinds) {

    /** The heap check's settings; it runs instead of everything else when {@code enabled}. */
    record HeapSettings(boolean enabled, long pairs, long every, int inFlight, long boundBytes) {
    }

    /** The fencing counter check's settings; it runs instead of everything else when {@code enabled}. */
    record CounterSettings(boolean enabled, long resources, long warmup, Duration horizon, int inFlight, long held,
            Duration clearLimit) {
    }

    /** The many-leases check's settings; it runs instead of everything else when {@code enabled}. */
    record LeaseSettings(boolean enabled, long count, Duration ttl, Duration hold, int inFlight) {
    }

    /** The shard cost check's settings; it runs instead of everything else when {@code enabled}. */
    record ScalingSettings(boolean enabled, int members, int shards, int rounds, Duration window, int inFlight) {
    }

    /**
     * The per-call cost check's settings; it runs instead of everything else when enabled: the nodes' own times
     * ({@link CallCostCheck}), or with {@code instructions} the instructions of one node under callgrind
     * ({@link InstructionCheck}, {@code pairs} pairs of each kind, no rounds).
     */
    record CallSettings(boolean enabled, int pairs, int rounds, boolean instructions) {
    }

    /**
     * The kinds of lock ({@link Kinds}): a section of the side-by-side run when {@code enabled}, or alone instead of
     * everything else when {@code only}. {@code nodes}: the node counts redlock-java runs on (the harness starts
     * {@link Bench#NODES}); {@code contestants}: their ids, empty for all; {@code threads} callers, {@code several} resources per lock of several, a semaphore of
     * {@code permits}, each hold {@code hold} of work, the read-write lock's writer resting {@code writerRest} between
     * its pairs, every wait at most {@code maxWait}.
     */
    record KindSettings(boolean enabled, boolean only, List<Integer> nodes, List<String> contestants, int threads,
            int several, int permits, Duration hold, Duration writerRest, Duration maxWait) {

        KindSettings {
            nodes = List.copyOf(nodes);
            contestants = List.copyOf(contestants);
            if (nodes.isEmpty() || nodes.stream().anyMatch(n -> n < 1 || n > Bench.NODES)) {
                throw new IllegalArgumentException("need kinds node counts between 1 and " + Bench.NODES + ": " + nodes);
            }
            if (several < 2 || permits < 1 || threads <= several || threads <= permits) {
                throw new IllegalArgumentException("need several >= 2, permits >= 1 and more threads than either: "
                        + "threads " + threads + ", several " + several + ", permits " + permits);
            }
            if (hold.isNegative() || writerRest.isNegative() || maxWait.isNegative() || maxWait.isZero()) {
                throw new IllegalArgumentException("need a hold and a writer rest >= 0 and a wait > 0: " + hold + ", "
                        + writerRest + ", " + maxWait);
            }
        }
    }

    BenchConfig {
        levels = List.copyOf(levels);
        contestants = List.copyOf(contestants);
        contendedClients = List.copyOf(contendedClients);
        contestants.forEach(id -> {
            if (!Contestants.KNOWN.contains(id)) {
                throw Contestants.unknown(id);
            }
        });
        if (contendedClients.isEmpty() || contendedClients.stream().anyMatch(clients -> clients < 2)) {
            throw new IllegalArgumentException("need contended client counts >= 2: " + contendedClients);
        }
        if (rounds < 1 || levels.isEmpty() || levels.stream().anyMatch(level -> level < 1)) {
            throw new IllegalArgumentException("need rounds >= 1 and in-flight levels >= 1: " + rounds + ", " + levels);
        }
    }

    static BenchConfig fromSystemProperties() {
        return new BenchConfig(
                duration(property("bench.jit", "5s")),
                Integer.parseInt(property("bench.rounds", "5")),
                duration(property("bench.warmup", "1s")),
                duration(property("bench.window", "2s")),
                list(property("bench.levels", "1,16,64,256")).stream().map(Integer::valueOf).toList(),
                list(property("bench.contestants", String.join(",", Contestants.ALL))),
                Boolean.parseBoolean(property("bench.contended", "true")),
                list(property("bench.contended.clients", "16,64")).stream().map(Integer::valueOf).toList(),
                duration(property("bench.contended.warmup", "2s")),
                duration(property("bench.contended.window", "10s")),
                Path.of(property("bench.out", "docs/bench")).toAbsolutePath().normalize(),
                new HeapSettings(
                        Boolean.parseBoolean(property("bench.heap", "false")),
                        Long.parseLong(property("bench.heap.pairs", "1000000")),
                        Long.parseLong(property("bench.heap.every", "100000")),
                        Integer.parseInt(property("bench.heap.inflight", "64")),
                        Long.parseLong(property("bench.heap.boundMb", "32")) << 20),
                new CounterSettings(
                        Boolean.parseBoolean(property("bench.counters", "false")),
                        Long.parseLong(property("bench.counters.resources", "1000000")),
                        Long.parseLong(property("bench.counters.warmup", "100000")),
                        duration(property("bench.counters.horizon", "10s")),
                        Integer.parseInt(property("bench.counters.inflight", "64")),
                        Long.parseLong(property("bench.counters.held", "100000")),
                        duration(property("bench.counters.clearLimit", "5m"))),
                new LeaseSettings(
                        Boolean.parseBoolean(property("bench.leases", "false")),
                        Long.parseLong(property("bench.leases.count", "100000")),
                        duration(property("bench.leases.ttl", "30s")),
                        duration(property("bench.leases.hold", "2m")),
                        Integer.parseInt(property("bench.leases.inflight", "64"))),
                new ScalingSettings(
                        Boolean.parseBoolean(property("bench.scaling", "false")),
                        Integer.parseInt(property("bench.scaling.members", "3")),
                        Integer.parseInt(property("bench.scaling.shards", "3")),
                        Integer.parseInt(property("bench.scaling.rounds", "3")),
                        duration(property("bench.scaling.window", "20s")),
                        Integer.parseInt(property("bench.scaling.inflight", "64"))),
                new CallSettings(
                        Boolean.parseBoolean(property("bench.calls", "false")),
                        Integer.parseInt(property("bench.calls.pairs", "5000")),
                        Integer.parseInt(property("bench.calls.rounds", "3")),
                        Boolean.parseBoolean(property("bench.calls.instructions", "false"))),
                new KindSettings(
                        Boolean.parseBoolean(property("bench.kinds", "true")),
                        Boolean.parseBoolean(property("bench.kinds.only", "false")),
                        list(property("bench.kinds.nodes", "1," + Bench.NODES)).stream().map(Integer::valueOf).toList(),
                        list(property("bench.kinds.contestants", "")),
                        Integer.parseInt(property("bench.kinds.threads", "6")),
                        Integer.parseInt(property("bench.kinds.several", "2")),
                        Integer.parseInt(property("bench.kinds.permits", "2")),
                        duration(property("bench.kinds.hold", "1ms")),
                        duration(property("bench.kinds.writerRest", "10ms")),
                        duration(property("bench.kinds.maxWait", "2s"))));
    }

    /** {@code 300ms}, {@code 2s}, {@code 1m}. */
    static Duration duration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
        }
        if (t.endsWith("s")) {
            return Duration.ofMillis(Math.round(Double.parseDouble(t.substring(0, t.length() - 1)) * 1000));
        }
        if (t.endsWith("m")) {
            return Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1)));
        }
        throw new IllegalArgumentException("not a duration (300ms, 2s, 1m): " + text);
    }

    private static String property(String name, String fallback) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    private static List<String> list(String commaSeparated) {
        return Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
