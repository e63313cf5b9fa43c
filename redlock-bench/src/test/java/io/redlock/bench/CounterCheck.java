package io.redlock.bench;

import io.lettuce.core.SetArgs;
import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Do fencing counters go away? Locks and releases {@code resources} distinct resources with a short counter horizon,
 * {@code inFlight} at a time; then waits, polling, until every node's DBSIZE and used_memory are back within 5 % of
 * the baseline; then locks a sample of those resources again and compares their tokens with the earlier ones. Then
 * the memory per held lock per node: {@code held} fenced leases, next to as many plain {@code SET NX PX} locks.
 *
 * <p>The baseline is the nodes' empty state after a warm-up of {@code warmup} resources whose keys all expired: a
 * fresh redis-server keeps about 100 KB more allocated once it has held and expired many keys (the same for plain
 * {@code SET PX} keys, and it does not grow with more rounds), so the state before any key is reported too, as the
 * cold baseline.
 */
final class CounterCheck {

    /** Back "within 5 % of the baseline": used_memory within 5 %; DBSIZE at most 5 % above (the baseline is 0). */
    static final double WITHIN = 0.05;
    private static final Duration LEASE_TTL = Duration.ofMinutes(5);
    private static final int SAMPLE = 1_000;
    private static final Duration POLL = Duration.ofMillis(250);

    private CounterCheck() {
    }

    /** One node's DBSIZE and used_memory. */
    record Usage(long keys, long usedMemory) {
        static Usage of(RedisServer node) {
            String info = node.redis(r -> r.info("memory"));
            long used = info.lines().filter(l -> l.startsWith("used_memory:")).mapToLong(l -> Long.parseLong(l
                    .substring("used_memory:".length()).trim())).findFirst().orElseThrow();
            return new Usage(node.redis(r -> r.dbsize()), used);
        }

        boolean backTo(Usage baseline) {
            return keys <= baseline.keys * (1 + WITHIN)
                    && Math.abs(usedMemory - baseline.usedMemory) <= baseline.usedMemory * WITHIN;
        }
    }

    record Result(long resources, Duration horizon, List<Usage> cold, List<Usage> baseline, List<Usage> loaded,
            List<Usage> after,
            Duration lockTime, Duration clearTime, boolean cleared, long sampled, long tokensNotHigher, long errors,
            long held, List<Long> fencedBytesPerLock, List<Long> plainBytesPerLock) {
    }

    static Result run(RedisNodes nodes, BenchConfig.CounterSettings s, Consumer<String> out) throws Exception {
        List<RedisServer> servers = nodes.servers();
        long[] before = new long[SAMPLE];
        long every = Math.max(1, s.resources() / SAMPLE);
        AtomicLong errors = new AtomicLong();
        // the contestants' per-node timeout: at the 50 ms default a loaded machine's slow reply fails an acquisition
        try (Redlock redlock = Redlock.builder().nodes(nodes.uriArray()).nodeTimeout(RedlockContestant.NODE_TIMEOUT)
                .fenceCounterTtl(s.horizon()).build()) {
            // cold: connected, scripts loaded; no key yet
            redlock.tryAcquire("counter:cold", LEASE_TTL).orElseThrow().release();
            flush(servers);
            List<Usage> cold = usage(servers);
            out.accept("cold baseline: " + cold);
            runAll(s.warmup(), s.inFlight(), errors, i -> redlock.tryAcquireAsync("warmup:" + i, LEASE_TTL)
                    .toCompletableFuture().thenCompose(lease -> lease.orElseThrow().releaseAsync().toCompletableFuture()));
            List<Usage> baseline = settled(servers, s.clearLimit());
            out.accept(String.format("baseline after %,d warm-up resources expired: %s", s.warmup(), baseline));
            long start = System.nanoTime();
            runAll(s.resources(), s.inFlight(), errors, i -> redlock.tryAcquireAsync("counter:" + i, LEASE_TTL)
                    .toCompletableFuture().thenCompose(lease -> {
                        if (lease.isEmpty()) {
                            return CompletableFuture.failedFuture(new IllegalStateException("not acquired: counter:" + i));
                        }
                        if (i % every == 0 && i / every < SAMPLE) {
                            before[(int) (i / every)] = lease.get().fencingToken();
                        }
                        return lease.get().releaseAsync().toCompletableFuture();
                    }));
            Duration lockTime = Duration.ofNanos(System.nanoTime() - start);
            List<Usage> loaded = usage(servers);
            out.accept(String.format("%,d resources locked and released in %d s: %s", s.resources(), lockTime.toSeconds(),
                    loaded));

            long clearStart = System.nanoTime();
            long limit = clearStart + s.clearLimit().toNanos();
            List<Usage> after = usage(servers);
            while (!backTo(after, baseline) && System.nanoTime() < limit) {
                TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
                after = usage(servers);
            }
            boolean cleared = backTo(after, baseline);
            Duration clearTime = Duration.ofNanos(System.nanoTime() - clearStart);
            out.accept(String.format("%s after %d s: %s", cleared ? "back to the baseline" : "NOT back", clearTime.toSeconds(),
                    after));

            long notHigher = 0;
            long sampled = Math.min(SAMPLE, (s.resources() + every - 1) / every);
            for (int k = 0; k < sampled; k++) {
                Optional<Lease> again = redlock.tryAcquire("counter:" + (k * every), LEASE_TTL);
                if (again.isEmpty()) {
                    errors.incrementAndGet();
                    continue;
                }
                if (again.get().fencingToken() <= before[k]) {
                    notHigher++;
                }
                again.get().release();
            }
            out.accept(String.format("%,d resources locked again: %,d tokens not above their earlier ones", sampled,
                    notHigher));
            flush(servers);

            List<Long> fenced = perLock(servers, s.held(), () -> holdFenced(redlock, s.held(), s.inFlight(), errors));
            List<Long> plain = perLock(servers, s.held(), () -> holdPlain(servers, s.held()));
            out.accept("bytes per held lock per node: fenced " + fenced + ", plain SET NX PX " + plain);
            return new Result(s.resources(), s.horizon(), cold, baseline, loaded, after, lockTime, clearTime, cleared,
                    sampled, notHigher, errors.get(), s.held(), fenced, plain);
        }
    }

    /** The nodes once they hold no key and used_memory stopped changing (two equal readings a poll apart). */
    private static List<Usage> settled(List<RedisServer> servers, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        List<Usage> previous = usage(servers);
        while (System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(POLL.toMillis());
            List<Usage> now = usage(servers);
            if (now.equals(previous) && now.stream().allMatch(u -> u.keys() == 0)) {
                return now;
            }
            previous = now;
        }
        throw new IllegalStateException("the nodes did not settle empty within " + limit + ": " + previous);
    }

    private static void runAll(long count, int inFlight, AtomicLong errors,
            Function<Long, CompletableFuture<?>> pair) throws InterruptedException {
        Semaphore slots = new Semaphore(inFlight);
        for (long i = 0; i < count; i++) {
            slots.acquire();
            pair.apply(i).whenComplete((ok, failure) -> {
                if (failure != null) {
                    errors.incrementAndGet();
                }
                slots.release();
            });
        }
        if (!slots.tryAcquire(inFlight, 60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("pairs still in flight after 60 s");
        }
    }

    private interface Hold {
        void run() throws Exception;
    }

    /** used_memory per node grown by {@code hold}, divided by {@code locks}; the nodes are flushed afterwards. */
    private static List<Long> perLock(List<RedisServer> servers, long locks, Hold hold) throws Exception {
        List<Usage> empty = usage(servers);
        hold.run();
        List<Usage> full = usage(servers);
        flush(servers);
        List<Long> bytes = new ArrayList<>();
        for (int n = 0; n < servers.size(); n++) {
            bytes.add((full.get(n).usedMemory() - empty.get(n).usedMemory()) / locks);
        }
        return bytes;
    }

    private static void holdFenced(Redlock redlock, long locks, int inFlight, AtomicLong errors) throws Exception {
        runAll(locks, inFlight, errors, i -> redlock.tryAcquireAsync("held:" + i, LEASE_TTL).toCompletableFuture()
                .thenApply(lease -> lease.orElseThrow(() -> new IllegalStateException("not acquired: held:" + i))));
    }

    /** What another Redlock client writes: {@code SET key value NX PX}, with a value as long as ours (27 chars). */
    private static void holdPlain(List<RedisServer> servers, long locks) {
        SecureRandom random = new SecureRandom();
        byte[] bytes = new byte[20];
        for (RedisServer node : servers) {
            node.redis(r -> {
                for (long i = 0; i < locks; i++) {
                    random.nextBytes(bytes);
                    r.set("plain:" + i, Base64.getUrlEncoder().withoutPadding().encodeToString(bytes),
                            SetArgs.Builder.nx().px(LEASE_TTL.toMillis()));
                }
                return null;
            });
        }
    }

    private static void flush(List<RedisServer> servers) {
        servers.forEach(node -> node.redis(r -> r.flushall()));
    }

    private static List<Usage> usage(List<RedisServer> servers) {
        return servers.stream().map(Usage::of).toList();
    }

    private static boolean backTo(List<Usage> now, List<Usage> baseline) {
        for (int n = 0; n < now.size(); n++) {
            if (!now.get(n).backTo(baseline.get(n))) {
                return false;
            }
        }
        return true;
    }
}
