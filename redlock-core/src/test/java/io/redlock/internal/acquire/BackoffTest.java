package io.redlock.internal.acquire;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.RetryPolicy;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private final RetryPolicy retry = RetryPolicy.uniform(Duration.ofMillis(100), Duration.ofMillis(300));

    @Test
    void afterALostRoundTheDelayIsDrawnFromTheRetryPolicy() {
        Backoff backoff = new Backoff(retry);
        RandomGenerator random = new SplittableRandom(7);
        for (int i = 0; i < 1_000; i++) {
            assertThat(backoff.afterLoss(-1, 0, random)).isBetween(100 * MS, 300 * MS);
        }
    }

    @Test
    void whenTheNodesSayWhenTheLockIsFreeTheDelayEndsAFewMillisecondsAfterThat() {
        Backoff backoff = new Backoff(retry);
        RandomGenerator random = new SplittableRandom(7);
        for (int i = 0; i < 1_000; i++) {
            assertThat(backoff.afterLoss(20 * MS, 0, random)).isBetween(20 * MS, 25 * MS);
        }
        assertThat(backoff.afterLoss(0, 0, random)).as("free now: only the jitter").isLessThanOrEqualTo(5 * MS);
    }

    @Test
    void aHolderIsNeverWaitedForLongerThanTheRetryDelay() {
        Backoff backoff = new Backoff(retry);
        assertThat(backoff.afterLoss(10_000 * MS, 0, new SplittableRandom(1))).isLessThanOrEqualTo(300 * MS);
    }

    @Test
    void afterAReleaseTheWaiterPausesAtMostTheWakeJitter() {
        Backoff backoff = new Backoff(retry); // 100 ms / 20 = 5 ms, the upper bound
        RandomGenerator random = new SplittableRandom(3);
        for (int i = 0; i < 1_000; i++) {
            assertThat(backoff.afterRelease(false, false, random)).isBetween(0L, Backoff.MAX_WAKE_JITTER_NANOS);
        }
    }

    @Test
    void aQueuedWaiterDoesNotPauseAfterARelease() {
        Backoff backoff = new Backoff(retry);
        assertThat(backoff.afterRelease(false, true, new SplittableRandom(3))).isZero();
    }

    @Test
    void cleanUpsInARowDoubleTheBoundUpToALimitAndAReleaseResetsIt() {
        Backoff backoff = new Backoff(RetryPolicy.uniform(Duration.ofMillis(20), Duration.ofSeconds(5)));
        RandomGenerator largest = new MaxRandom();
        long jitter = Backoff.MIN_WAKE_JITTER_NANOS; // 20 ms / 20
        for (int inARow = 1; inARow <= Backoff.MAX_DOUBLINGS + 2; inARow++) {
            long expected = jitter << Math.min(inARow, Backoff.MAX_DOUBLINGS);
            assertThat(backoff.afterRelease(true, false, largest)).as("clean-up %d in a row", inARow)
                    .isEqualTo(expected);
        }
        assertThat(backoff.afterRelease(false, false, largest)).isEqualTo(jitter);
        assertThat(backoff.afterRelease(true, false, largest)).isEqualTo(jitter << 1);
    }

    @Test
    void theMoreOfTheLockAContenderGotTheShorterItBacksOffAfterACollision() {
        Backoff gotNothing = new Backoff(retry);
        Backoff gotTwo = new Backoff(retry);
        RandomGenerator largest = new MaxRandom();
        gotNothing.afterLoss(-1, 0, largest);
        gotTwo.afterLoss(-1, 2, largest);
        assertThat(gotTwo.afterRelease(true, false, largest))
                .isEqualTo(gotNothing.afterRelease(true, false, largest) / 3);
    }

    @Test
    void theBackOffNeverExceedsTheLongestRetryDelay() {
        Backoff backoff = new Backoff(RetryPolicy.uniform(Duration.ofMillis(100), Duration.ofMillis(100)));
        RandomGenerator largest = new MaxRandom();
        for (int i = 0; i < 10; i++) {
            assertThat(backoff.afterRelease(true, false, largest)).isLessThanOrEqualTo(100 * MS);
        }
    }

    /** Always draws the largest value: the bounds become exact. */
    private static final class MaxRandom implements RandomGenerator {
        @Override
        public long nextLong() {
            return Long.MAX_VALUE;
        }

        @Override
        public long nextLong(long bound) {
            return bound - 1;
        }
    }
}
