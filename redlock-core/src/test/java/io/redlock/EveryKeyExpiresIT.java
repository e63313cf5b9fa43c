package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;

/**
 * Nothing the library writes lives forever: after contended fenced work (waiters queued, leases extended, kept alive
 * and released, tries that barge, readers, locks of several resources) every key on every node has a TTL.
 */
@WithRedisNodes(5)
class EveryKeyExpiresIT {

    private static final Duration TTL = Duration.ofSeconds(5);
    private static final int THREADS = 6;
    private static final int ROUNDS = 15;

    @Test
    void afterContendedWorkEveryKeyOnEveryNodeHasATtl(RedisNodes nodes) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Redlock redlock = t % 2 == 0 ? a : b;
                String resource = "expiring:" + (t % 3);
                int thread = t;
                work.add(pool.submit(() -> {
                    for (int i = 0; i < ROUNDS; i++) {
                        if (thread == 0) {
                            Lock lock = redlock.lock(resource);
                            lock.lock(); // kept alive by the watchdog
                            lock.unlock();
                        } else if (thread == 1) {
                            Lock read = redlock.readWriteLock(resource).readLock(); // readers beside the others
                            read.lock();
                            read.unlock();
                            redlock.readWriteLock(resource).acquireRead(TTL, Duration.ofSeconds(30)).orElseThrow()
                                    .release();
                        } else if (thread == 2) {
                            redlock.acquireAll(List.of(resource, "expiring:0"), TTL, Duration.ofSeconds(30))
                                    .orElseThrow().release(); // a lock of several resources beside the others
                        } else if (thread == 3) {
                            RedlockSemaphore permits = redlock.semaphore("expiring-permits", 2); // a semaphore too
                            redlock.withLock(LockTarget.permit("expiring-permits", 2), LockOptions.builder().ttl(TTL)
                                    .maxWait(Duration.ofSeconds(30)).build(), lease -> null);
                            permits.acquire(TTL, Duration.ofSeconds(30)).orElseThrow().release();
                        } else if (i % 3 == 0) {
                            redlock.tryAcquire(resource, TTL).ifPresent(Lease::release); // barges, never queues
                        } else {
                            Lease lease = redlock.acquire(resource, TTL, Duration.ofSeconds(30)).orElseThrow();
                            lease.extend(TTL);
                            lease.release();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : work) {
                f.get(60, TimeUnit.SECONDS);
            }
            for (RedisServer node : nodes) {
                List<String> keys = keysOn(node);
                assertThat(keys).as("keys written on %s", node).isNotEmpty();
                for (String key : keys) {
                    assertThat(node.pttl(key)).as("TTL of %s on %s", key, node).isNotEqualTo(-1L);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static List<String> keysOn(RedisServer node) {
        return node.redis(r -> {
            List<String> keys = new ArrayList<>();
            ScanCursor cursor = ScanCursor.INITIAL;
            do {
                KeyScanCursor<String> page = r.scan(cursor, ScanArgs.Builder.limit(100));
                keys.addAll(page.getKeys());
                cursor = page;
            } while (!cursor.isFinished());
            return keys;
        });
    }
}
