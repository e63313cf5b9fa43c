package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The fencing counter's settings: bounded by default, forever only on request, never expiring without the floor. */
class FenceCounterConfigTest {

    private static RedlockBuilder threeNodes() {
        return Redlock.builder().nodes("redis://127.0.0.1:7001", "redis://127.0.0.1:7002", "redis://127.0.0.1:7003");
    }

    @Test
    void countersExpireAfterADayWithTheClockFloorByDefault() {
        RedlockConfig config = threeNodes().config();
        assertThat(config.fenceCounterTtl()).isEqualTo(Duration.ofHours(24)).isEqualTo(RedlockConfig.DEFAULT_FENCE_COUNTER_TTL);
        assertThat(config.fencingClockFloor()).isTrue();
    }

    @Test
    void withoutFencingThereIsNoCounterAndNoFloor() {
        RedlockConfig config = threeNodes().fencing(false).config();
        assertThat(config.fenceCounterTtl()).isZero();
        assertThat(config.fencingClockFloor()).isFalse();
    }

    @Test
    void zeroKeepsCountersForeverAndThenTheFloorMayBeOff() {
        RedlockConfig config = threeNodes().fenceCounterTtl(Duration.ZERO).fencingClockFloor(false).config();
        assertThat(config.fenceCounterTtl()).isZero();
        assertThat(config.fencingClockFloor()).isFalse();
        assertThat(threeNodes().fenceCounterTtl(Duration.ofDays(7)).config().fenceCounterTtl())
                .isEqualTo(Duration.ofDays(7));
    }

    @Test
    void countersThatExpireNeedTheClockFloor() {
        assertThatThrownBy(() -> threeNodes().fencingClockFloor(false).config())
                .isInstanceOf(RedlockConfigException.class)
                .hasMessageContaining("need the clock floor").hasMessageContaining("fenceCounterTtl(Duration.ZERO)")
                .satisfies(e -> assertThat(((RedlockConfigException) e).settings())
                        .containsExactly("fencingClockFloor", "fenceCounterTtl"));
        assertThatThrownBy(() -> threeNodes().fencingClockFloor(false).fenceCounterTtl(Duration.ofHours(1)).config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("need the clock floor");
    }

    @Test
    void rejectsAHorizonBelowTwoSecondsNegativeFractionalOrNull() {
        for (Duration bad : new Duration[] {Duration.ofMillis(1_999), Duration.ofSeconds(-1), Duration.ofNanos(2_000_000_001L)}) {
            assertThatThrownBy(() -> threeNodes().fenceCounterTtl(bad).config())
                    .isInstanceOf(RedlockConfigException.class)
                    .hasMessageContaining("fenceCounterTtl must be zero (forever) or at least 2 s");
        }
        assertThatThrownBy(() -> threeNodes().fenceCounterTtl(null).config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("must not be null");
    }

    @Test
    void theCounterSettingsNeedFencing() {
        assertThatThrownBy(() -> threeNodes().fencing(false).fenceCounterTtl(Duration.ofHours(1)).config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("fenceCounterTtl needs fencing(true)");
        assertThatThrownBy(() -> threeNodes().fencing(false).fencingClockFloor(true).config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("fencingClockFloor(true) needs fencing(true)");
    }
}
