package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Many blocking withLock calls at once: the watchdog adds no thread per lease (issue 4, J2). */
@WithRedisNodes(5)
class BlockingAtScaleIT {

    private static final Logger log = LoggerFactory.getLogger(BlockingAtScaleIT.class);
    private static final int CALLS = 400;
    private static final int POOL = 200;

    private static int threadsNamed(String prefix) {
        return (int) Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(prefix)).count();
    }

    @Test
    void blockingWithLockOnManyResourcesAddsNoThreadPerLease(RedisNodes nodes) throws Exception {
        // TTL 2 s, work 2.5 s: every lease is extended by the watchdog at least once while its work blocks; it
        // extends at 1.4 s left (the most a 500 ms node timeout allows), so only a stall of the watchdog or the nodes
        // of over a second loses a lease, not a pause of a loaded machine (at 1 s, a third left: 333 ms)
        LockOptions options = LockOptions.builder().ttl(Duration.ofSeconds(2)).extendWhenRemaining(
                Duration.ofMillis(1_400)).maxWait(Duration.ofSeconds(30)).build();
        Duration work = Duration.ofMillis(2_500);
        AtomicInteger threadNumber = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(POOL,
                r -> new Thread(r, "blocking-worker-" + threadNumber.incrementAndGet()));
        try (Redlock redlock = redlockOn(nodes).nodeTimeout(Duration.ofMillis(500)).build()) {
            redlock.withLock("warm-up", options, lease -> null); // the engine's own threads exist from here on
            int redlockThreadsBefore = threadsNamed("redlock-");
            int allThreadsBefore = Thread.getAllStackTraces().size();
            AtomicLong peakRedlockThreads = new AtomicLong();
            AtomicLong peakAllThreads = new AtomicLong();
            AtomicBoolean sampling = new AtomicBoolean(true);
            Thread sampler = new Thread(() -> {
                while (sampling.get()) {
                    peakRedlockThreads.accumulateAndGet(threadsNamed("redlock-"), Math::max);
                    peakAllThreads.accumulateAndGet(Thread.getAllStackTraces().size(), Math::max);
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "thread-sampler");
            sampler.start();
            AtomicInteger validAtEnd = new AtomicInteger();
            long start = System.nanoTime();
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < CALLS; i++) {
                int n = i;
                results.add(pool.submit(() -> redlock.withLock("blocking-" + n, options, lease -> {
                    Thread.sleep(work.toMillis());
                    if (lease.isValid()) {
                        validAtEnd.incrementAndGet();
                    }
                    return n;
                })));
            }
            for (int i = 0; i < CALLS; i++) {
                assertThat(results.get(i).get(120, TimeUnit.SECONDS)).isEqualTo(i);
            }
            long tookMs = ItSupport.elapsedMillis(start);
            sampling.set(false);
            sampler.join(5_000);
            log.info("{} blocking withLock calls (2.5 s of work, TTL 2 s) on {} pool threads in {} ms: redlock-*"
                    + " threads {} before, at most {} during; JVM threads {} before (pool not yet started), at most"
                    + " {} during", CALLS, POOL, tookMs, redlockThreadsBefore, peakRedlockThreads.get(),
                    allThreadsBefore, peakAllThreads.get());
            assertThat(validAtEnd).hasValue(CALLS); // each lease outlived its TTL only by being extended
            // every thread the library starts is named redlock-…; the JVM's count is only reported: it also holds
            // threads the test framework starts at any moment (WaitingIT once saw 40 appear in a few seconds)
            assertThat(peakRedlockThreads.get()).isEqualTo(redlockThreadsBefore);
            for (int i = 0; i < CALLS; i += 37) {
                assertThat(ItSupport.absentEverywhere(nodes, "blocking-" + i)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
