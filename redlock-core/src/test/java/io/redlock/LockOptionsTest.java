package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LockOptionsTest {

    @Test
    void defaultsExtendWhenAThirdOfTheTtlRemains() {
        LockOptions defaults = LockOptions.defaults();
        assertThat(defaults.ttl()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.maxWait()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.maxHold()).isEqualTo(Duration.ofMinutes(10));
        assertThat(defaults.extendWhenRemaining()).isEqualTo(Duration.ofSeconds(10));
        assertThat(LockOptions.builder().ttl(Duration.ofMillis(900)).build().extendWhenRemaining())
                .isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void toBuilderKeepsEverything() {
        LockOptions options = LockOptions.builder().ttl(Duration.ofSeconds(3)).maxWait(Duration.ZERO)
                .maxHold(Duration.ofSeconds(9)).extendWhenRemaining(Duration.ofSeconds(2)).build();
        LockOptions copy = options.toBuilder().build();
        assertThat(copy.toString()).isEqualTo(options.toString());
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
