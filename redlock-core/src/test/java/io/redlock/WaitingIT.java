package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Waiting without hammering Redis, and many leases without many threads. */
@WithRedisNodes(5)
class WaitingIT {

    private static final Logger log = LoggerFactory.getLogger(WaitingIT.class);
    /** Polling alone tries again no sooner than 8 s after a refusal: far longer than any handoff takes. */
    private static final RetryPolicy SLOW_POLLING = RetryPolicy.uniform(Duration.ofSeconds(8), Duration.ofSeconds(9));
    private static final Duration TTL = Duration.ofSeconds(10);

    /**
     * How long after the call a waiter of {@code waiterPolicy} holds a lock that is released once the waiter was
     * refused (its place in the queue is on every node).
     */
    private static Duration handoff(RedisNodes nodes, String resource, RetryPolicy waiterPolicy, boolean wakeOnRelease)
            throws Exception {
        try (Redlock holder = redlockOn(nodes).build();
                Redlock waiter = redlockOn(nodes).retry(waiterPolicy).wakeOnRelease(wakeOnRelease).build()) {
            Lease held = holder.tryAcquire(resource, TTL).orElseThrow();
            long asked = System.nanoTime();
            CompletableFuture<Optional<Lease>> waiting = waiter.acquireAsync(resource, TTL, Duration.ofSeconds(30))
                    .toCompletableFuture();
            // the waiter was refused and holds its place on a majority (a node whose reply timed out on a loaded
            // machine may get it only at the next attempt, after the retry delay)
            await().atMost(Duration.ofSeconds(5)).until(() -> nodes.servers().stream()
                    .filter(node -> node.redis(r -> r.zcard(ItSupport.queueOf(resource))) > 0).count()
                    >= nodes.size() / 2 + 1);
            held.release();
            Lease lease = waiting.get(30, TimeUnit.SECONDS).orElseThrow();
            Duration took = Duration.ofNanos(System.nanoTime() - asked);
            lease.release();
            return took;
        }
    }

    @Test
    void wakeOnReleaseBringsARefusedWaiterInBeforeItsRetryDelay(RedisNodes nodes) throws Exception {
        Duration took = handoff(nodes, "handoff-woken", SLOW_POLLING, true);
        log.info("woken by the release: held {} ms after asking (retry delay 8-9 s)", took.toMillis());
        // the refusal came after the call, and polling alone tries again no sooner than 8 s after it
        assertThat(took).isLessThan(Duration.ofSeconds(8));
    }

    @Test
    void withoutWakeOnReleaseARefusedWaiterComesInOnlyAfterItsRetryDelay(RedisNodes nodes) throws Exception {
        Duration retryDelay = Duration.ofSeconds(1);
        Duration took = handoff(nodes, "handoff-polling", RetryPolicy.uniform(retryDelay, retryDelay.plusMillis(200)),
                false);
        log.info("polling alone: held {} ms after asking (retry delay 1-1.2 s)", took.toMillis());
        // nothing brings it in before the retry delay after its refusal, which came after the call
        assertThat(took).isGreaterThanOrEqualTo(retryDelay);
    }

    @Test
    void aWaiterDoesNotSleepPastTheHoldersExpiry(RedisNodes nodes) {
        try (Redlock holder = redlockOn(nodes).build();
                Redlock waiter = redlockOn(nodes).retry(SLOW_POLLING).build()) {
            Lease crashed = holder.tryAcquire("expiring-holder", Duration.ofMillis(500)).orElseThrow();
            long start = System.nanoTime();
            // the holder never releases (it crashed): no message comes, only its TTL ends it
            Lease lease = waiter.acquire("expiring-holder", Duration.ofSeconds(5), Duration.ofSeconds(20))
                    .orElseThrow();
            long tookMs = ItSupport.elapsedMillis(start);
            log.info("took over an expired holder after {} ms with an 8-9 s retry delay", tookMs);
            // a retry delay after its first refusal would bring it in no sooner than 8 s after the call: it tried
            // again when the holder's key expired (500 ms), not at its retry delay
            assertThat(tookMs).isLessThan(8_000);
            assertThat(crashed.isValid()).isFalse();
            lease.release();
        }
    }

    /**
     * Five clients contend for one lock: no two validity windows overlap (from the acquire's return to the end of the
     * validity, cut short by the release), and the lock keeps changing hands. The rate of handoffs against the ideal
     * needs a quiet machine: it is only reported.
     */
    @Test
    void underContentionValidityWindowsNeverOverlapAndTheLockKeepsChangingHands(RedisNodes nodes) throws Exception {
        int clients = 5;
        Duration hold = Duration.ofMillis(50);
        Duration warmUp = Duration.ofSeconds(2);
        Duration measured = Duration.ofSeconds(8);
        List<Redlock> redlocks = new ArrayList<>();
        AtomicInteger acquisitions = new AtomicInteger();
        AtomicLong lastRelease = new AtomicLong();
        List<long[]> windows = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Long> gaps = java.util.Collections.synchronizedList(new ArrayList<>());
        try {
            for (int c = 0; c < clients; c++) {
                // library defaults (retry 100-300 ms): wake-on-release, not fast polling, does the handoff
                redlocks.add(Redlock.builder().nodes(nodes.uriArray()).nodeTimeout(ItSupport.NODE_TIMEOUT).build());
            }
            CountDownLatch start = new CountDownLatch(1);
            long began = System.nanoTime();
            long from = began + warmUp.toNanos();
            long end = from + measured.toNanos();
            List<Thread> threads = new ArrayList<>();
            for (Redlock redlock : redlocks) {
                Thread thread = new Thread(() -> {
                    try {
                        start.await();
                        while (System.nanoTime() < end) {
                            Lease lease = redlock.acquire("hot", Duration.ofSeconds(2), Duration.ofSeconds(5))
                                    .orElse(null);
                            if (lease == null) {
                                continue;
                            }
                            long acquiredAt = System.nanoTime();
                            long previous = lastRelease.get();
                            if (acquiredAt > from && previous != 0) {
                                gaps.add(acquiredAt - previous);
                            }
                            Thread.sleep(hold.toMillis());
                            long releasedAt = System.nanoTime();
                            windows.add(new long[] {acquiredAt, Math.min(releasedAt, lease.validUntil())});
                            if (acquiredAt > from && releasedAt < end) {
                                acquisitions.incrementAndGet();
                            }
                            lastRelease.set(releasedAt);
                            lease.release();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                threads.add(thread);
                thread.start();
            }
            start.countDown();
            for (Thread thread : threads) {
                thread.join(warmUp.plus(measured).plusSeconds(10).toMillis());
            }
            double rate = acquisitions.get() / (measured.toNanos() / 1e9);
            double ideal = 1000.0 / hold.toMillis();
            long[] sorted = gaps.stream().mapToLong(Long::longValue).sorted().toArray();
            log.info("contention: {} clients, {} ms hold, 5 nodes: {} acquisitions in {} s after a {} s warm-up ="
                    + " {}/s, {}% of the ideal {}/s; handoff (release to next hold) p50 {} ms, p99 {} ms", clients,
                    hold.toMillis(), acquisitions.get(), measured.toSeconds(), warmUp.toSeconds(),
                    String.format("%.1f", rate), String.format("%.0f", 100 * rate / ideal), ideal,
                    sorted.length == 0 ? "-" : String.format("%.2f", sorted[sorted.length / 2] / 1e6),
                    sorted.length == 0 ? "-" : String.format("%.2f", sorted[sorted.length * 99 / 100] / 1e6));
            List<long[]> byStart = new ArrayList<>(windows);
            byStart.sort(java.util.Comparator.comparingLong(window -> window[0]));
            for (int i = 1; i < byStart.size(); i++) {
                long latestEnd = byStart.subList(0, i).stream().mapToLong(window -> window[1]).max().orElseThrow();
                assertThat(byStart.get(i)[0] - latestEnd).as("a lease held within another's validity window")
                        .isPositive();
            }
            assertThat(byStart).as("acquisitions in %s s", warmUp.plus(measured).toSeconds()).hasSizeGreaterThan(1);
        } finally {
            redlocks.forEach(Redlock::close);
        }
    }

    /**
     * The library's live threads (every one it starts is named {@code redlock-…}); not the JVM's, where the test
     * framework and the testkit start threads of their own at any moment (servers for the next test class).
     */
    private static int liveThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("redlock-")).count();
    }

    @Test
    void aThousandConcurrentAutoExtendedLeasesNeedOnlyAFewThreads(RedisNodes nodes) throws Exception {
        int leases = 1_000;
        LockOptions options = LockOptions.builder().ttl(Duration.ofSeconds(3)).maxWait(Duration.ofSeconds(30))
                .extendWhenRemaining(Duration.ofSeconds(2)).build();
        try (Redlock redlock = redlockOn(nodes).nodeTimeout(Duration.ofMillis(500)).build()) {
            // warm the JIT with the same burst first: this test is about threads, not about a cold JVM's latency
            List<CompletableFuture<Optional<Lease>>> warmUp = new ArrayList<>();
            for (int i = 0; i < leases; i++) {
                warmUp.add(redlock.tryAcquireAsync("warm-" + i, Duration.ofSeconds(5)).toCompletableFuture());
            }
            for (CompletableFuture<Optional<Lease>> lease : warmUp) {
                lease.get(30, TimeUnit.SECONDS).ifPresent(Lease::release);
            }
            int threadsBefore = liveThreads();
            AtomicLong peakThreads = new AtomicLong(threadsBefore);
            AtomicBoolean sampling = new AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                while (sampling.get()) {
                    peakThreads.accumulateAndGet(liveThreads(), Math::max);
                    try {
                        Thread.sleep(250);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            sampler.start();
            AtomicInteger stillValidAtEnd = new AtomicInteger();
            List<CompletableFuture<Integer>> results = new ArrayList<>();
            for (int i = 0; i < leases; i++) {
                int n = i;
                results.add(redlock.withLockAsync("many-" + i, options, lease -> CompletableFuture.supplyAsync(() -> {
                    if (lease.isValid()) {
                        stillValidAtEnd.incrementAndGet();
                    }
                    return n;
                }, CompletableFuture.delayedExecutor(4_000, TimeUnit.MILLISECONDS))).toCompletableFuture());
            }
            for (int i = 0; i < leases; i++) {
                assertThat(results.get(i).get(60, TimeUnit.SECONDS)).isEqualTo(i);
            }
            sampling.set(false);
            sampler.join(5_000);
            log.info("{} leases held 4 s each (TTL 3 s, so extended): {} library threads before, at most {} during",
                    leases, threadsBefore, peakThreads.get());
            assertThat(stillValidAtEnd).hasValue(leases);
            assertThat(peakThreads.get() - threadsBefore).isLessThan(30);
            for (int i = 0; i < leases; i += 97) {
                assertThat(ItSupport.absentEverywhere(nodes, "many-" + i)).isTrue();
            }
        }
    }
}
