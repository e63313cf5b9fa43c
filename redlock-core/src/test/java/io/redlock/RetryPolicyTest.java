package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    @Test
    void defaultDelaysStayBetween100And300Milliseconds() {
        RetryPolicy policy = RetryPolicy.defaults();
        SplittableRandom random = new SplittableRandom(42);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < 100_000; i++) {
            long delay = policy.nextDelayNanos(random);
            min = Math.min(min, delay);
            max = Math.max(max, delay);
        }
        assertThat(min).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
        assertThat(max).isLessThanOrEqualTo(Duration.ofMillis(300).toNanos());
        // uniform: 100k draws come within 1 % of both ends
        assertThat(min).isLessThan(Duration.ofMillis(102).toNanos());
        assertThat(max).isGreaterThan(Duration.ofMillis(298).toNanos());
    }

    @Test
    void delaysAreRandomSoContendersDesynchronize() {
        RetryPolicy policy = RetryPolicy.uniform(Duration.ofMillis(10), Duration.ofMillis(20));
        SplittableRandom random = new SplittableRandom(7);
        Set<Long> distinct = new HashSet<>();
        for (int i = 0; i < 100; i++) {
            distinct.add(policy.nextDelayNanos(random));
        }
        assertThat(distinct).hasSizeGreaterThan(95);
    }

    @Test
    void equalBoundsGiveAFixedDelay() {
        RetryPolicy policy = RetryPolicy.uniform(Duration.ofMillis(50), Duration.ofMillis(50));
        assertThat(policy.nextDelayNanos(new SplittableRandom(1))).isEqualTo(Duration.ofMillis(50).toNanos());
    }

    @Test
    void rejectsNonPositiveMinimumAndInvertedBounds() {
        assertThatThrownBy(() -> RetryPolicy.uniform(Duration.ZERO, Duration.ofMillis(5)))
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("was 0s");
        assertThatThrownBy(() -> RetryPolicy.uniform(Duration.ofMillis(20), Duration.ofMillis(10)))
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("(20ms), was 10ms");
    }
}
