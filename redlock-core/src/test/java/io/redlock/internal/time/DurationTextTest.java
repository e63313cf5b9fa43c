package io.redlock.internal.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DurationTextTest {

    @ParameterizedTest
    @CsvSource({
        "PT0S, 0s", "PT0.25S, 250ms", "PT0.0005S, 0.5ms", "PT1S, 1s", "PT4.75S, 4.75s", "PT1.500000001S, 1.500000001s",
        "PT90S, 90s", "PT2M, 2m", "PT3H, 3h", "PT8784H, 366d", "PT-5S, -5s", "PT0.000000001S, 0.000001ms"})
    void aDurationReadsAsUsersWriteOne(Duration duration, String text) {
        assertThat(DurationText.of(duration)).isEqualTo(text);
    }
}
