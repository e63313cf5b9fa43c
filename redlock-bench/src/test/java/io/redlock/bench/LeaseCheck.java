package io.redlock.bench;

import io.redlock.Lease;
import io.redlock.LockOptions;
import io.redlock.LossReason;
import io.redlock.Redlock;
import io.redlock.RedlockObserver;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Many leases in one client: holds {@code count} leases kept alive by the library ({@code withLockAsync}, whose work
 * is one of two shared futures) for {@code hold}, releases half of them at once (the burst: one future completes the
 * work of every other lease) and keeps the other half for {@code hold} more, then releases those. Reports the client
 * heap per lease (used heap after {@link System#gc()} while they are held, minus before), how many extension
 * operations each node got per script call while they were held (INFO commandstats: EVALSHA calls, against the
 * extension rounds the observer saw), the CPU of the client and the nodes while held and during the burst, every lease
 * lost, and how late expiries are noticed ({@link ExpiryProbes}) during the burst and on a quiet client.
 */
final class LeaseCheck {

    private static final Duration ACQUIRE_LIMIT = Duration.ofMinutes(5);
    private static final Duration PROGRESS = Duration.ofSeconds(10);
    private static final String PROBE = "probe:";
    /** Probe leases per group, and their TTL (above the per-node timeout, which a TTL must leave room for). */
    private static final int PROBES = 1_000;
    static final Duration PROBE_TTL = Duration.ofSeconds(3);
    /** The burst starts this long before the first probe's validity ends, so they run out early in it. */
    private static final Duration PROBES_AHEAD = Duration.ofMillis(200);

    private LeaseCheck() {
    }

    record Result(long leases, Duration ttl, Duration hold, long heapBeforeBytes, long heapHeldBytes, long heapEndBytes,
            long extensionRounds, long failedRounds, List<Long> evalshaCalls, long lost, long errors,
            double clientCpuShare, double serverCpuShare, int keptAliveAtEnd, Duration acquireTime, Burst burst) {

        /** Just after every lease was taken. */
        long heapPerLeaseBytes() {
            return (heapHeldBytes - heapBeforeBytes) / leases;
        }

        /** At the end of the hold, every lease extended several times. */
        long heapPerLeaseAtEndBytes() {
            return (heapEndBytes - heapBeforeBytes) / leases;
        }

        /** Extension operations per EVALSHA call on node {@code n}: every round sends one to each node. */
        double opsPerCall(int n) {
            return evalshaCalls.get(n) == 0 ? 0 : (double) (extensionRounds + failedRounds) / evalshaCalls.get(n);
        }
    }

    /**
     * Half the leases released at once, the other half kept: how long the burst took, the CPU it cost (client and
     * nodes, shares of a core over its duration), extension rounds failed and leases lost during it, leases lost while
     * the other half was kept afterwards, how late expiries were noticed during it and later on a quiet client, and
     * how long releasing the kept half took at the end.
     */
    record Burst(long released, Duration time, double clientCpuShare, double serverCpuShare, long failedRounds,
            long lostDuring, long kept, Duration keptFor, long lostWhileKept, int keptAliveAtEnd,
            ExpiryProbes.Lateness lateDuring, ExpiryProbes.Lateness lateQuiet, Duration finalReleaseTime) {
    }

    /** The leases of one shared future: complete {@code work} to release them all. */
    private record Group(CompletableFuture<Void> work, List<CompletableFuture<Void>> done) {

        Duration releaseAll(Duration limit) throws Exception {
            long start = System.nanoTime();
            work.complete(null);
            CompletableFuture.allOf(done.stream().map(f -> f.exceptionally(lostOrFailed -> null))
                    .toArray(CompletableFuture[]::new)).get(limit.toSeconds(), TimeUnit.SECONDS); // losses counted
            return Duration.ofNanos(System.nanoTime() - start);
        }
    }

    static Result run(RedisNodes nodes, BenchConfig.LeaseSettings s, Consumer<String> out) throws Exception {
        LongAdder extended = new LongAdder();
        LongAdder failed = new LongAdder();
        LongAdder lost = new LongAdder();
        AtomicLong errors = new AtomicLong();
        RedlockObserver observer = new RedlockObserver() {
            @Override
            public void extension(String resource, boolean ok, Duration took) {
                (ok ? extended : failed).increment();
            }

            @Override
            public void leaseLost(Lease lease, LossReason reason) {
                if (!lease.resource().startsWith(PROBE)) {
                    lost.increment();
                }
            }
        };
        CpuMeter cpu = new CpuMeter(nodes.servers().stream().map(RedisServer::pid).toList());
        // the contestants' per-node timeout: at the 50 ms default a loaded machine's slow reply fails an extension
        try (Redlock redlock = Redlock.builder().nodes(nodes.uriArray()).nodeTimeout(RedlockContestant.NODE_TIMEOUT)
                .build()) {
            redlock.addObserver(observer);
            LockOptions options = LockOptions.builder().ttl(s.ttl()).maxHold(s.hold().multipliedBy(4)).build();
            redlock.withLockAsync("lease:warmup", options, lease -> CompletableFuture.completedFuture(null))
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
            long heapBefore = usedHeapAfterGc();
            out.accept(String.format("used heap before: %,d KiB", heapBefore >> 10));

            Group released = new Group(new CompletableFuture<>(), new ArrayList<>());
            Group kept = new Group(new CompletableFuture<>(), new ArrayList<>());
            CountDownLatch holding = new CountDownLatch((int) s.count());
            Semaphore slots = new Semaphore(s.inFlight());
            long start = System.nanoTime();
            for (long i = 0; i < s.count(); i++) {
                Group group = i % 2 == 0 ? released : kept;
                slots.acquire();
                CompletableFuture<Void> one = redlock.<Void>withLockAsync("lease:" + i, options, lease -> {
                    slots.release();
                    holding.countDown();
                    return group.work();
                }).toCompletableFuture();
                one.whenComplete((v, failure) -> {
                    if (failure != null) {
                        errors.incrementAndGet();
                        if (holding.getCount() > 0) {
                            slots.release();
                            holding.countDown();
                        }
                    }
                });
                group.done().add(one);
            }
            if (!holding.await(ACQUIRE_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IllegalStateException("leases not all held within " + ACQUIRE_LIMIT);
            }
            Duration acquireTime = Duration.ofNanos(System.nanoTime() - start);
            long heapHeld = usedHeapAfterGc();
            out.accept(String.format("%,d leases held after %d s; used heap %,d KiB: %,d bytes per lease", s.count(),
                    acquireTime.toSeconds(), heapHeld >> 10, (heapHeld - heapBefore) / s.count()));

            List<Long> callsBefore = evalshaCalls(nodes);
            extended.reset();
            failed.reset();
            CpuMeter.Sample cpuBefore = cpu.sample();
            long holdStart = System.nanoTime();
            holdFor(s.hold(), extended, failed, lost, out);
            CpuMeter.Sample cpuAfter = cpu.sample();
            double wall = System.nanoTime() - holdStart;
            List<Long> callsAfter = evalshaCalls(nodes);
            List<Long> calls = new ArrayList<>();
            for (int n = 0; n < callsBefore.size(); n++) {
                calls.add(callsAfter.get(n) - callsBefore.get(n));
            }
            int keptAlive = redlock.activeLeases();
            long rounds = extended.sum();
            long failedRounds = failed.sum();
            long heapEnd = usedHeapAfterGc();
            long lostWhileHeld = lost.sum();

            Burst burst = burst(redlock, cpu, released, kept, s, failed, lost, out);
            Result result = new Result(s.count(), s.ttl(), s.hold(), heapBefore, heapHeld, heapEnd, rounds, failedRounds,
                    calls, lostWhileHeld, errors.get() - (lost.sum() - lostWhileHeld),
                    (cpuAfter.clientNanos() - cpuBefore.clientNanos()) / wall,
                    (cpuAfter.serverNanos() - cpuBefore.serverNanos()) / wall, keptAlive, acquireTime, burst);
            out.accept(String.format("held %d s: %,d extension rounds (%,d failed), EVALSHA calls per node %s, lost %d,"
                    + " errors %d, kept alive at the end %,d, client CPU %.0f %% of a core, nodes %.0f %%; heap per lease"
                    + " at the end %,d bytes", s.hold().toSeconds(), rounds, failedRounds, calls, result.lost(),
                    result.errors(), keptAlive, 100 * result.clientCpuShare(), 100 * result.serverCpuShare(),
                    result.heapPerLeaseAtEndBytes()));
            return result;
        }
    }

    /** Releases {@code released} at once, keeps {@code kept} for the hold, then releases it. */
    private static Burst burst(Redlock redlock, CpuMeter cpu, Group released, Group kept, BenchConfig.LeaseSettings s,
            LongAdder failed, LongAdder lost, Consumer<String> out) throws Exception {
        int probes = (int) Math.min(PROBES, Math.max(1, s.count() / 2));
        ExpiryProbes duringBurst = ExpiryProbes.take(redlock, PROBE + "burst:", probes, PROBE_TTL);
        long waitForProbes = duringBurst.firstValidUntil() - PROBES_AHEAD.toNanos() - System.nanoTime();
        if (waitForProbes > 0) {
            TimeUnit.NANOSECONDS.sleep(waitForProbes);
        }
        long failedBefore = failed.sum();
        long lostBefore = lost.sum();
        CpuMeter.Sample before = cpu.sample();
        Duration time = released.releaseAll(Duration.ofMinutes(5));
        CpuMeter.Sample after = cpu.sample();
        double wall = time.toNanos();
        long failedDuring = failed.sum() - failedBefore;
        long lostDuring = lost.sum() - lostBefore;
        ExpiryProbes.Lateness lateDuring = duringBurst.await(Duration.ofMinutes(1));
        out.accept(String.format("released %,d at once in %d ms: %,d extension rounds failed meanwhile, %,d lost;"
                + " probes: %s", released.done().size(), time.toMillis(), failedDuring, lostDuring, lateDuring.text()));

        long keepStart = System.nanoTime();
        holdFor(s.hold().dividedBy(2), null, failed, lost, out);
        ExpiryProbes quiet = ExpiryProbes.take(redlock, PROBE + "quiet:", probes, PROBE_TTL);
        ExpiryProbes.Lateness lateQuiet = quiet.await(Duration.ofMinutes(1));
        out.accept("quiet probes: " + lateQuiet.text());
        holdFor(s.hold().minus(Duration.ofNanos(System.nanoTime() - keepStart)), null, failed, lost, out);
        Duration keptFor = Duration.ofNanos(System.nanoTime() - keepStart);
        long lostWhileKept = lost.sum() - lostBefore - lostDuring;
        int keptAlive = redlock.activeLeases();
        Duration finalRelease = kept.releaseAll(Duration.ofMinutes(5));
        out.accept(String.format("kept %,d for %d s: %,d lost, %,d kept alive at the end; released them in %d ms",
                kept.done().size(), keptFor.toSeconds(), lostWhileKept, keptAlive, finalRelease.toMillis()));
        return new Burst(released.done().size(), time, (after.clientNanos() - before.clientNanos()) / wall,
                (after.serverNanos() - before.serverNanos()) / wall, failedDuring, lostDuring, kept.done().size(),
                keptFor, lostWhileKept, keptAlive, lateDuring, lateQuiet, finalRelease);
    }

    /** Waits {@code hold}, printing progress every {@link #PROGRESS}. */
    private static void holdFor(Duration hold, LongAdder extended, LongAdder failed, LongAdder lost,
            Consumer<String> out) throws InterruptedException {
        long holdStart = System.nanoTime();
        long holdEnd = holdStart + hold.toNanos();
        for (long left; (left = holdEnd - System.nanoTime()) > 0; ) {
            TimeUnit.NANOSECONDS.sleep(Math.min(left, PROGRESS.toNanos()));
            out.accept(String.format("  %d s: %s%,d extension rounds failed, %d lost",
                    TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - holdStart),
                    extended == null ? "" : String.format("%,d extension rounds, ", extended.sum()), failed.sum(),
                    lost.sum()));
        }
    }

    private static List<Long> evalshaCalls(RedisNodes nodes) {
        List<Long> calls = new ArrayList<>();
        for (RedisServer node : nodes) {
            String stats = node.redis(r -> r.info("commandstats"));
            calls.add(stats.lines().filter(l -> l.startsWith("cmdstat_evalsha:")).findFirst()
                    .map(l -> Long.parseLong(l.replaceAll("^cmdstat_evalsha:calls=(\\d+),.*", "$1"))).orElse(0L));
        }
        return calls;
    }

    private static long usedHeapAfterGc() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
