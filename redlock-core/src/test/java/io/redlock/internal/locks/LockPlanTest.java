package io.redlock.internal.locks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.RedlockConfig;
import io.redlock.RedlockConfigException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LockPlanTest {

    private static RedlockConfig config(Duration defaultTtl, Duration defaultMaxWait) {
        return Redlock.builder().nodes("redis://127.0.0.1:1").defaultTtl(defaultTtl).defaultMaxWait(defaultMaxWait)
                .nodeTimeout(Duration.ofMillis(50)).driftFactor(0.01).config();
    }

    @Test
    void unsetTtlAndWaitAreTheRedlocksDefaults() {
        LockPlan plan = LockPlan.of(LockOptions.defaults(), config(Duration.ofSeconds(2), Duration.ofSeconds(7)));
        assertThat(plan.ttl()).isEqualTo(Duration.ofSeconds(2));
        assertThat(plan.maxWait()).isEqualTo(Duration.ofSeconds(7));
        assertThat(plan.maxHold()).isEqualTo(LockOptions.DEFAULT_MAX_HOLD);
        assertThat(plan.extendWhenRemaining()).isEqualTo(Duration.ofSeconds(2).dividedBy(3));
    }

    @Test
    void aCallsTtlThatCouldNeverBeGrantedIsRefusedNamingTheNumbers() {
        RedlockConfig oneMilli = Redlock.builder().nodes("redis://127.0.0.1:1").nodeTimeout(Duration.ofMillis(1))
                .config();
        assertThatThrownBy(() -> LockPlan.of(LockOptions.builder().ttl(Duration.ofMillis(2)).build(), oneMilli))
                .isInstanceOf(RedlockConfigException.class)
                .hasMessage("ttl must leave a validity after the clock-drift allowance (1.0 % of it + 2 ms = 2.02 ms)"
                        + " and the per-node timeout 1ms: at least 4 ms, was 2ms");
    }

    @Test
    void optionsThatSetTtlAndWaitKeepThem() {
        LockOptions options = LockOptions.builder().ttl(Duration.ofSeconds(9)).maxWait(Duration.ZERO).build();
        LockPlan plan = LockPlan.of(options, config(Duration.ofSeconds(2), Duration.ofSeconds(7)));
        assertThat(plan.ttl()).isEqualTo(Duration.ofSeconds(9));
        assertThat(plan.maxWait()).isZero();
        assertThat(plan.extendWhenRemaining()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void theThresholdMayBeAtMostTheValidityLeftAfterASlowestRound() {
        RedlockConfig config = config(Duration.ofSeconds(1), Duration.ZERO);
        // 1000 ms - drift (10 ms + 2 ms) - per-node timeout (50 ms)
        Duration latest = Duration.ofMillis(938);
        assertThat(LockPlan.of(LockOptions.builder().extendWhenRemaining(latest).build(), config)
                .extendWhenRemaining()).isEqualTo(latest);
        assertThatThrownBy(() -> LockPlan.of(LockOptions.builder().extendWhenRemaining(latest.plusMillis(1)).build(),
                config)).isInstanceOf(RedlockConfigException.class)
                .hasMessageContaining("at most 938ms").hasMessageContaining("was 939ms");
    }

    @Test
    void aThirdOfATtlBarelyAboveTheNodeTimeoutIsCappedAtTheLatestThreshold() {
        RedlockConfig config = config(Duration.ofMillis(60), Duration.ZERO);
        // 60 ms - 2.6 ms drift - 50 ms: 7.4 ms left after a slowest round, less than a third of 60 ms
        assertThat(LockPlan.of(LockOptions.defaults(), config).extendWhenRemaining())
                .isEqualTo(Duration.ofNanos(7_400_000));
    }

    @Test
    void aTtlThatLeavesNoValidityAfterASlowestRoundIsRefusedBeforeAnythingIsKeptAlive() {
        assertThatThrownBy(() -> config(Duration.ofMillis(51), Duration.ZERO))
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("defaultTtl must leave a validity");
    }
}
