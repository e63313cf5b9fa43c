package io.redlock.internal.parts;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ValidityTest {

    private static long ms(long millis) {
        return Duration.ofMillis(millis).toNanos();
    }

    @Test
    void driftIsOnePercentOfTheTtlPlusTwoMilliseconds() {
        assertThat(Validity.driftNanos(ms(10_000), 0.01)).isEqualTo(ms(102));
        assertThat(Validity.driftNanos(ms(30_000), 0.01)).isEqualTo(ms(302));
        assertThat(Validity.driftNanos(ms(10_000), 0)).isEqualTo(ms(2));
    }

    @Test
    void validityIsTtlMinusElapsedMinusDrift() {
        // the spec's example: 10 s TTL, acquisition took 50 ms
        assertThat(Validity.validityNanos(ms(10_000), ms(50), 0.01)).isEqualTo(ms(10_000 - 50 - 102));
    }

    @Test
    void validityIsNotPositiveWhenTheAcquisitionTookTheWholeTtl() {
        assertThat(Validity.validityNanos(ms(1_000), ms(988), 0.01)).isZero();
        assertThat(Validity.validityNanos(ms(1_000), ms(989), 0.01)).isNegative();
        assertThat(Validity.validityNanos(ms(1_000), ms(987), 0.01)).isPositive();
    }

    @Test
    void validUntilCountsFromTheStartOfTheOperation() {
        long start = ms(5_000);
        assertThat(Validity.validUntil(start, ms(10_000), 0.01)).isEqualTo(start + ms(10_000 - 102));
        // the same instant whatever the elapsed time: validUntil = decidedAt + validity
        long decidedAt = start + ms(40);
        assertThat(decidedAt + Validity.validityNanos(ms(10_000), ms(40), 0.01))
                .isEqualTo(Validity.validUntil(start, ms(10_000), 0.01));
    }
}
