package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Tries of a semaphore at the same moment, no more of them than permits: each gets a permit. */
@WithRedisNodes(3)
class SemaphoreRaceIT {

    private static final Duration TTL = Duration.ofSeconds(10);
    private static final int ROUNDS = 200;

    @Test
    void asManyTriesAtOnceAsPermitsEachGetOne(RedisNodes nodes) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        // a refusal must come from the semaphore's rules, not from a node a loaded machine answered late
        try (Redlock redlock = EveryNodeAnswers.redlockOn(nodes).build()) {
            RedlockSemaphore semaphore = redlock.semaphore("race", 2);
            CyclicBarrier together = new CyclicBarrier(2);
            int failed = 0;
            for (int round = 0; round < ROUNDS; round++) {
                List<Future<Optional<Lease>>> tries = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    tries.add(pool.submit(() -> {
                        together.await(5, TimeUnit.SECONDS);
                        return semaphore.tryAcquire(TTL);
                    }));
                }
                for (Future<Optional<Lease>> attempt : tries) {
                    Optional<Lease> lease = attempt.get(10, TimeUnit.SECONDS);
                    if (lease.isEmpty()) {
                        failed++;
                    }
                    lease.ifPresent(Lease::release);
                }
            }
            assertThat(failed).as("tries refused with a permit free, of %s", 2 * ROUNDS).isZero();
        } finally {
            pool.shutdownNow();
        }
    }
}
