package io.redlock.bench;

import io.redlock.Redlock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.redisson.api.RedissonClient;

/**
 * The kinds of lock side by side (issue #20): for each kind — the plain lock (the baseline), several resources at
 * once, a read-write lock, a semaphore — redlock-java on each of {@code bench.kinds.nodes} and Redisson's
 * single-master equivalent on one node, all through the {@link Harness} (its JIT warm-up, rounds with every contestant
 * in turn, measured windows, CPU meter) with blocking callers, in one run on the same nodes. Redisson's rows and
 * redlock-java's one-node rows use the same node (the first).
 */
final class Kinds {

    private Kinds() {
    }

    /** One row: the harness's result and what the contestant counted. */
    record Result(Kind kind, String library, LevelResult level, KindContestant.KindCounts counts) {
    }

    static List<Result> run(BenchConfig config, List<String> uris, CpuMeter cpu, Consumer<String> out) {
        BenchConfig.KindSettings settings = config.kinds();
        Map<Integer, Redlock> redlocks = new LinkedHashMap<>();
        RedissonClient redisson = null;
        try {
            for (int nodes : settings.nodes()) {
                redlocks.put(nodes, Redlock.builder().nodes(uris.subList(0, nodes))
                        .nodeTimeout(RedlockContestant.NODE_TIMEOUT).build());
            }
            redisson = RedissonClients.create(uris.get(0));
            List<KindContestant> contestants = contestants(settings, redlocks, redisson);
            out.accept(String.format("kinds of lock: %d contestants, %d threads, %d ms of work per hold",
                    contestants.size(), settings.threads(), settings.hold().toMillis()));
            // the JIT warm-up at the measured thread count too: all a contestant counts is of one shape
            List<LevelResult> levels = new Harness(List.copyOf(contestants), out, cpu, settings.threads()).run(config.jit(),
                    List.of(settings.threads()), config.rounds(), config.warmup(), config.window());
            List<Result> results = new ArrayList<>();
            for (int i = 0; i < contestants.size(); i++) {
                KindContestant contestant = contestants.get(i);
                results.add(new Result(contestant.kind(), contestant.library(), levels.get(i), contestant.counts()));
            }
            return results;
        } finally {
            redlocks.values().forEach(Redlock::close);
            if (redisson != null) {
                RedissonClients.shutdown(redisson);
            }
        }
    }

    /** In the order of the table: by kind, redlock-java on each node count, then Redisson. */
    private static List<KindContestant> contestants(BenchConfig.KindSettings settings, Map<Integer, Redlock> redlocks,
            RedissonClient redisson) {
        List<KindContestant> contestants = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            redlocks.forEach((nodes, redlock) -> contestants.add(new KindContestant(kind, "redlock-java",
                    "redlock-java " + redlockName(kind, settings) + " (" + nodes + (nodes == 1 ? " node)" : " nodes)"),
                    id(kind) + "-" + nodes, nodes, settings, window -> RedlockKinds.open(redlock, window))));
            contestants.add(new KindContestant(kind, "Redisson", "Redisson " + redissonName(kind, settings)
                    + " (1 node)", "redisson-" + id(kind), 1, settings,
                    window -> RedissonKinds.open(redisson, window, RedissonKinds.Semaphore.EXPIRABLE)));
            if (kind == Kind.PERMITS) {
                contestants.add(new KindContestant(kind, "Redisson", "Redisson RSemaphore of " + settings.permits() + " (1 node)",
                        "redisson-semaphore", 1, settings,
                        window -> RedissonKinds.open(redisson, window, RedissonKinds.Semaphore.PLAIN)));
            }
        }
        if (settings.contestants().isEmpty()) {
            return contestants;
        }
        List<String> known = contestants.stream().map(KindContestant::id).toList();
        settings.contestants().stream().filter(id -> !known.contains(id)).findFirst().ifPresent(id -> {
            throw new IllegalArgumentException("unknown kinds contestant " + id + ", known: " + known);
        });
        return contestants.stream().filter(c -> settings.contestants().contains(c.id())).toList();
    }

    private static String id(Kind kind) {
        return switch (kind) {
            case LOCK -> "lock";
            case SEVERAL -> "several";
            case READ_WRITE -> "rw";
            case PERMITS -> "permits";
        };
    }

    private static String redlockName(Kind kind, BenchConfig.KindSettings settings) {
        return switch (kind) {
            case LOCK -> "lock";
            case SEVERAL -> "acquireAll of " + settings.several();
            case READ_WRITE -> "RedlockReadWriteLock";
            case PERMITS -> "RedlockSemaphore of " + settings.permits();
        };
    }

    private static String redissonName(Kind kind, BenchConfig.KindSettings settings) {
        return switch (kind) {
            case LOCK -> "RLock";
            case SEVERAL -> "MultiLock of " + settings.several() + " RLocks";
            case READ_WRITE -> "RReadWriteLock";
            case PERMITS -> "RPermitExpirableSemaphore of " + settings.permits();
        };
    }
}
