package io.redlock.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The doctor's version check compares numbers, not text. */
class VersionsTest {

    @Test
    void majorVersionsCompareAsNumbers() {
        assertThat(Versions.olderThan("10.0", 6)).isFalse(); // as text, "10.0" < "6"
        assertThat(Versions.olderThan("7.0.15", 6)).isFalse();
        assertThat(Versions.olderThan("6.0.0", 6)).isFalse();
        assertThat(Versions.olderThan("5.0.14", 6)).isTrue();
        assertThat(Versions.olderThan("3.2", 6)).isTrue();
    }

    @Test
    void anUnreadableVersionIsNotCalledOld() {
        assertThat(Versions.olderThan("unknown", 6)).isFalse();
        assertThat(Versions.olderThan("", 6)).isFalse();
        assertThat(Versions.olderThan(null, 6)).isFalse();
        assertThat(Versions.major("12.4-rc1")).isEqualTo(12);
    }
}
