package io.redlock.internal.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.FakeTicker;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ExtensionPacingTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void theNextRoundStartsWhenTheThresholdIsReachedOrUpToAnEighthOfItEarlier() {
        FakeTicker ticker = new FakeTicker();
        long validUntil = ticker.read() + 30_000 * MS;
        ticker.advance(Duration.ofSeconds(5));
        SplittableRandom random = new SplittableRandom(11);
        long threshold = 10_000 * MS;
        for (int i = 0; i < 1_000; i++) {
            long delay = ExtensionPacing.nextRound(ticker.read(), validUntil, threshold, 0, random);
            assertThat(delay).isBetween(15_000 * MS - threshold / 8, 15_000 * MS);
        }
    }

    @Test
    void theNextRoundNeverStartsSoonerThanTheMinimumPauseEvenPastTheThreshold() {
        FakeTicker ticker = new FakeTicker();
        long validUntil = ticker.read() + 1_000 * MS;
        ticker.advance(Duration.ofMillis(900)); // 100 ms left, threshold 500 ms: overdue
        assertThat(ExtensionPacing.nextRound(ticker.read(), validUntil, 500 * MS, 50 * MS, new SplittableRandom(1)))
                .isEqualTo(50 * MS);
    }

    @Test
    void afterARoundWithoutMajorityItTriesAgainAtAThirdOfWhatIsLeftOrAQuarterOfTheThreshold() {
        assertThat(ExtensionPacing.afterFailedRound(10 * MS, 4_000 * MS, 9_000 * MS)).isEqualTo(1_000 * MS);
        assertThat(ExtensionPacing.afterFailedRound(10 * MS, 4_000 * MS, 300 * MS)).isEqualTo(100 * MS);
        assertThat(ExtensionPacing.afterFailedRound(10 * MS, 4_000 * MS, 6 * MS)).as("the minimum interval")
                .isEqualTo(10 * MS);
    }
}
