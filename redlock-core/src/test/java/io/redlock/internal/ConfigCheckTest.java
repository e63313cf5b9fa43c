package io.redlock.internal;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.RedlockConfigException;
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
    void rejectsNegativeMaxWait() {
        assertThatCode(() -> ConfigCheck.maxWait(Duration.ZERO)).doesNotThrowAnyException();
        assertThatThrownBy(() -> ConfigCheck.maxWait(Duration.ofMillis(-5))).isInstanceOf(RedlockConfigException.class)
                .hasMessageContaining("PT-0.005S");
    }

    @Test
    void rejectsTtlsNotAboveTheNodeTimeout() {
        assertThatThrownBy(() -> ConfigCheck.ttlAboveNodeTimeout("ttl", Duration.ofMillis(40), Duration.ofMillis(50)))
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("ttl").hasMessageContaining("PT0.04S");
        assertThatThrownBy(() -> ConfigCheck.ttlAboveNodeTimeout("ttl", Duration.ofDays(400), Duration.ofMillis(50)))
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("365 days");
    }
}
