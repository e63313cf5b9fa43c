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
 * is one shared future completed at the end) for {@code hold}, then releases them. Reports the client heap per lease
 * (used heap after {@link System#gc()} while they are held, minus before), how many extension operations each node
 * got per script call while they were held (INFO commandstats: EVALSHA calls, against the extension rounds the
 * observer saw), the client's CPU, and every lease lost: while held, and when all are released at once (one future
 * completes every lease's work).
 */
final class LeaseCheck {

    private static final Duration ACQUIRE_LIMIT = Duration.ofMinutes(5);
    private static final Duration PROGRESS = Duration.ofSeconds(10);

    private LeaseCheck() {
    }

    record Result(long leases, Duration ttl, Duration hold, long heapBeforeBytes, long heapHeldBytes, long heapEndBytes,
            long extensionRounds, long failedRounds, List<Long> evalshaCalls, long lost, long errors,
            double clientCpuShare, double serverCpuShare, int keptAliveAtEnd, Duration acquireTime,
            Duration releaseTime, long failedRoundsAtRelease, long lostAtRelease) {

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
        };
        CpuMeter cpu = new CpuMeter(nodes.servers().stream().map(RedisServer::pid).toList());
        // the contestants' per-node timeout: at the 50 ms default a loaded machine's slow reply fails an extension
        try (Redlock redlock = Redlock.builder().nodes(nodes.uriArray()).nodeTimeout(RedlockContestant.NODE_TIMEOUT)
                .observer(observer)
                .leaseListener((Lease lease, LossReason reason) -> lost.increment()).build()) {
            LockOptions options = LockOptions.builder().ttl(s.ttl()).maxHold(s.hold().multipliedBy(3)).build();
            redlock.withLockAsync("lease:warmup", options, lease -> CompletableFuture.completedFuture(null))
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
            long heapBefore = usedHeapAfterGc();
            out.accept(String.format("used heap before: %,d KiB", heapBefore >> 10));

            CompletableFuture<Void> holdAll = new CompletableFuture<>();
            CountDownLatch holding = new CountDownLatch((int) s.count());
            List<CompletableFuture<Void>> done = new ArrayList<>((int) s.count());
            Semaphore slots = new Semaphore(s.inFlight());
            long start = System.nanoTime();
            for (long i = 0; i < s.count(); i++) {
                slots.acquire();
                CompletableFuture<Void> one = redlock.<Void>withLockAsync("lease:" + i, options, lease -> {
                    slots.release();
                    holding.countDown();
                    return holdAll;
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
                done.add(one);
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
            long holdEnd = holdStart + s.hold().toNanos();
            for (long left; (left = holdEnd - System.nanoTime()) > 0; ) {
                TimeUnit.NANOSECONDS.sleep(Math.min(left, PROGRESS.toNanos()));
                out.accept(String.format("  %d s: %,d extension rounds, %,d failed, %d lost",
                        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - holdStart), extended.sum(), failed.sum(),
                        lost.sum()));
            }
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
            long releaseStart = System.nanoTime();
            holdAll.complete(null);
            CompletableFuture.allOf(done.stream().map(f -> f.exceptionally(lostOrFailed -> null))
                    .toArray(CompletableFuture[]::new)).get(2, TimeUnit.MINUTES); // losses are counted already
            Duration releaseTime = Duration.ofNanos(System.nanoTime() - releaseStart);
            long failedAtRelease = failed.sum() - failedRounds;
            long lostAtRelease = lost.sum() - lostWhileHeld;
            out.accept(String.format("released all at once in %d ms: %,d extension rounds failed meanwhile, %,d lost",
                    releaseTime.toMillis(), failedAtRelease, lostAtRelease));
            Result result = new Result(s.count(), s.ttl(), s.hold(), heapBefore, heapHeld, heapEnd, rounds, failedRounds,
                    calls, lostWhileHeld, errors.get() - lostAtRelease,
                    (cpuAfter.clientNanos() - cpuBefore.clientNanos()) / wall,
                    (cpuAfter.serverNanos() - cpuBefore.serverNanos()) / wall, keptAlive, acquireTime, releaseTime,
                    failedAtRelease, lostAtRelease);
            out.accept(String.format("held %d s: %,d extension rounds (%,d failed), EVALSHA calls per node %s, lost %d,"
                    + " errors %d, kept alive at the end %,d, client CPU %.0f %% of a core, nodes %.0f %%; heap per lease"
                    + " at the end %,d bytes", s.hold().toSeconds(), rounds, failedRounds, calls, result.lost(),
                    result.errors(), keptAlive, 100 * result.clientCpuShare(), 100 * result.serverCpuShare(),
                    result.heapPerLeaseAtEndBytes()));
            return result;
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
