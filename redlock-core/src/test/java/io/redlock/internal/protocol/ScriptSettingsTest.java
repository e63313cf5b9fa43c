package io.redlock.internal.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.Redlock;
import io.redlock.RedlockConfig;
import io.redlock.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScriptSettingsTest {

    @Test
    void aPlaceInTheQueueOutlivesTwoOfTheWaitersLongestPausesBetweenRounds() {
        RedlockConfig config = Redlock.builder().nodes("redis://127.0.0.1:1")
                .retry(RetryPolicy.uniform(Duration.ofMillis(100), Duration.ofMillis(300)))
                .nodeTimeout(Duration.ofMillis(50)).config();
        assertThat(ScriptSettings.placeLifetimeMillis(config)).isEqualTo(2 * (300 + 50) + 1);
    }
}
