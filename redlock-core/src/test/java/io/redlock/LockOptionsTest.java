package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LockOptionsTest {

    @Test
    void defaultsLeaveTtlWaitAndThresholdToTheRedlock() {
        LockOptions defaults = LockOptions.defaults();
        assertThat(defaults.ttl()).isEmpty();
        assertThat(defaults.maxWait()).isEmpty();
        assertThat(defaults.extendWhenRemaining()).isEmpty();
        assertThat(defaults.maxHold()).isEqualTo(LockOptions.DEFAULT_MAX_HOLD);
    }

    @Test
    void aThresholdWithoutATtlIsCheckedWhereTheTtlIsKnown() {
        assertThat(LockOptions.builder().extendWhenRemaining(Duration.ofSeconds(20)).build().extendWhenRemaining())
                .contains(Duration.ofSeconds(20));
    }

    @Test
    void toBuilderKeepsEverything() {
        LockOptions options = LockOptions.builder().ttl(Duration.ofSeconds(3)).maxWait(Duration.ZERO)
                .maxHold(Duration.ofSeconds(9)).extendWhenRemaining(Duration.ofSeconds(2)).build();
        LockOptions copy = options.toBuilder().build();
        assertThat(copy.toString()).isEqualTo(options.toString());
    }

    @Test
    void aMinimumHoldIsZeroByDefaultNotNegativeAndAtMostTheMaximumHold() {
        assertThat(LockOptions.defaults().minHold()).isZero();
        assertThat(LockOptions.builder().minHold(Duration.ofSeconds(30)).build().toBuilder().build().minHold())
                .isEqualTo(Duration.ofSeconds(30));
        assertThatThrownBy(() -> LockOptions.builder().minHold(Duration.ofMillis(-1)).build())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("minHold must not be negative");
        assertThatThrownBy(() -> LockOptions.builder().minHold(null).build())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("minHold must not be null");
        assertThatThrownBy(() -> LockOptions.builder().maxHold(Duration.ofSeconds(5)).minHold(Duration.ofSeconds(6))
                .build()).isInstanceOf(RedlockConfigException.class).hasMessageContaining("at most maxHold");
    }

    @Test
    void rejectsBadValuesNamingThem() {
        assertThatThrownBy(() -> LockOptions.builder().ttl(Duration.ZERO).build())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("ttl");
        assertThatThrownBy(() -> LockOptions.builder().maxWait(Duration.ofSeconds(-1)).build())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("maxWait");
        assertThatThrownBy(() -> LockOptions.builder().maxHold(Duration.ZERO).build())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("maxHold");
        assertThatThrownBy(() -> LockOptions.builder().ttl(Duration.ofSeconds(1))
                .extendWhenRemaining(Duration.ofSeconds(1)).build())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("extendWhenRemaining");
    }
}
