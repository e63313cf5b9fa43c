package io.redlock.internal.parts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.RedlockConfigException;
import io.redlock.internal.protocol.Keys;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Call arguments: checked before anything is sent. */
class ConfigCheckTest {

    @Test
    void rejectsBlankResources() {
        assertThatThrownBy(() -> ConfigCheck.resource(null)).isInstanceOf(RedlockConfigException.class)
                .hasMessageContaining("resource must not be blank");
        assertThatThrownBy(() -> ConfigCheck.resource(" \t")).isInstanceOf(RedlockConfigException.class);
    }

    @Test
    void rejectsResourcesLongerThanFourKibibytesInUtf8() {
        assertThatCode(() -> ConfigCheck.resource("r".repeat(4096))).doesNotThrowAnyException();
        assertThatThrownBy(() -> ConfigCheck.resource("r".repeat(4097))).isInstanceOf(RedlockConfigException.class)
                .hasMessageContaining("4097 bytes");
        // 2,049 two-byte characters are 4,098 bytes
        assertThatThrownBy(() -> ConfigCheck.resource("é".repeat(2049))).isInstanceOf(RedlockConfigException.class)
                .hasMessageContaining("4098 bytes");
    }

    @Test
    void rejectsResourcesThatAreAnotherResourcesOwnKeys() {
        for (String suffix : Keys.RESERVED_SUFFIXES) {
            assertThatThrownBy(() -> ConfigCheck.resource("orders:42" + suffix))
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining("must not end with '" + suffix)
                    .hasMessageContaining("'orders:42' keeps its");
        }
        assertThat(Keys.RESERVED_SUFFIXES).contains(":fence", ":waiters", ":waiters:until", ":readers",
                ":permits");
        for (String fine : new String[] {"orders:42", "orders:fenced", "fence", "job:until", "permits:of:x", ":x"}) {
            assertThatCode(() -> ConfigCheck.resource(fine)).as(fine).doesNotThrowAnyException();
        }
    }

    @Test
    void rejectsNegativeMaxWait() {
        assertThatCode(() -> ConfigCheck.maxWait(Duration.ZERO)).doesNotThrowAnyException();
        assertThatThrownBy(() -> ConfigCheck.maxWait(Duration.ofMillis(-5))).isInstanceOf(RedlockConfigException.class)
                .hasMessageContaining("was -5ms");
    }

    @Test
    void rejectsTtlsNotAboveTheNodeTimeout() {
        assertThatThrownBy(() -> ConfigCheck.ttlLeavesValidity("ttl", Duration.ofMillis(40), Duration.ofMillis(50), 0.01))
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("ttl").hasMessageContaining("40ms");
        assertThatThrownBy(() -> ConfigCheck.ttlLeavesValidity("ttl", Duration.ofDays(400), Duration.ofMillis(50), 0.01))
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("365 days");
    }

    @Test
    void rejectsTtlsShorterThanOneMillisecondInsteadOfSendingPxZero() {
        Duration subMilli = Duration.ofNanos(999_999);
        assertThatThrownBy(() -> ConfigCheck.ttlLeavesValidity("ttl", subMilli, Duration.ofNanos(1), 0.01))
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("ttl")
                .hasMessageContaining("at least 1 ms").hasMessageContaining("was 0.999999ms");
        assertThatCode(() -> ConfigCheck.ttlLeavesValidity("ttl", Duration.ofMillis(3), Duration.ofNanos(1), 0.01))
                .doesNotThrowAnyException();
    }

    @Test
    void rejectsTtlsThatLeaveNoValidityAfterTheDriftAllowanceAndOneNodeTimeout() {
        assertThatThrownBy(() -> ConfigCheck.ttlLeavesValidity("ttl", Duration.ofMillis(3), Duration.ofMillis(1), 0.01))
                .isInstanceOf(RedlockConfigException.class)
                .hasMessage("ttl must leave a validity after the clock-drift allowance (1.0 % of it + 2 ms = 2.03 ms)"
                        + " and the per-node timeout 1ms: at least 4 ms, was 3ms");
        assertThatCode(() -> ConfigCheck.ttlLeavesValidity("ttl", Duration.ofMillis(4), Duration.ofMillis(1), 0.01))
                .doesNotThrowAnyException();
        assertThatThrownBy(() -> ConfigCheck.ttlLeavesValidity("ttl", Duration.ofMillis(52), Duration.ofMillis(50),
                0.01)).hasMessageContaining("at least 53 ms");
        assertThatCode(() -> ConfigCheck.ttlLeavesValidity("ttl", Duration.ofMillis(53), Duration.ofMillis(50), 0.01))
                .doesNotThrowAnyException();
    }

    @Test
    void rejectsTtlsWithAFractionOfAMillisecond() {
        Duration fractional = Duration.ofMillis(1500).plusNanos(1);
        assertThatThrownBy(() -> ConfigCheck.ttlLeavesValidity("defaultTtl", fractional, Duration.ofMillis(50), 0.01))
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("defaultTtl")
                .hasMessageContaining("whole number of milliseconds").hasMessageContaining("1.500000001s");
        assertThatCode(() -> ConfigCheck.ttlLeavesValidity("ttl", Duration.ofSeconds(30), Duration.ofMillis(50), 0.01))
                .doesNotThrowAnyException();
    }
}
