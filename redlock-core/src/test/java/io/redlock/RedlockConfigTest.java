package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisURI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Configuration mistakes fail at build time with the bad value in the message; nothing connects here. */
class RedlockConfigTest {

    private static RedlockBuilder fiveNodes() {
        return Redlock.builder().nodes("redis://127.0.0.1:7001", "redis://127.0.0.1:7002", "redis://127.0.0.1:7003",
                "redis://127.0.0.1:7004", "redis://127.0.0.1:7005");
    }

    @Test
    void defaultsFollowTheSpec() {
        RedlockConfig config = fiveNodes().config();
        assertThat(config.nodes()).hasSize(5);
        assertThat(config.quorum()).isEqualTo(3);
        assertThat(config.driftFactor()).isEqualTo(0.01);
        assertThat(config.nodeTimeout()).isEqualTo(Duration.ofMillis(50));
        assertThat(config.keyPrefix()).isEmpty();
        assertThat(config.retry().minDelay()).isEqualTo(Duration.ofMillis(100));
        assertThat(config.retry().maxDelay()).isEqualTo(Duration.ofMillis(300));
        assertThat(config.defaultTtl()).isEqualTo(RedlockConfig.DEFAULT_TTL);
    }

    @Test
    void quorumIsAStrictMajority() {
        assertThat(Redlock.builder().nodes("redis://a:1").config().quorum()).isEqualTo(1);
        assertThat(Redlock.builder().nodes("redis://a:1", "redis://b:1").config().quorum()).isEqualTo(2);
        assertThat(Redlock.builder().nodes("redis://a:1", "redis://b:1", "redis://c:1").config().quorum())
                .isEqualTo(2);
        assertThat(fiveNodes().node(RedisURI.create("redis://f:1")).config().quorum()).isEqualTo(4);
    }

    @Test
    void aPasswordGivenOnItsOwnGoesOnCopiesOfTheUrisThatGiveNone() {
        RedisURI handedIn = RedisURI.create("redis://a:1");
        RedlockConfig config = Redlock.builder().node(handedIn).nodes("redis://:own-pw@b:1", "redis://c:1")
                .password("given-pw").config();
        assertThat(config.nodes()).extracting(uri -> new String(uri.getPassword()))
                .containsExactly("own-pw", "given-pw", "given-pw"); // strings first, then URIs handed in
        assertThat(handedIn.getPassword()).isNull();
        assertThatThrownBy(() -> Redlock.builder().nodes("redis://a:1").password(" \t").config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("password must not be blank");
    }

    @Test
    void rejectsNoNodes() {
        assertThatThrownBy(() -> Redlock.builder().config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("no nodes");
    }

    @Test
    void rejectsAnInvalidUriWithoutShowingItsPassword() {
        assertThatThrownBy(() -> Redlock.builder().nodes("redis://:hunter2@127.0.0.1:notaport").config())
                .isInstanceOf(RedlockConfigException.class)
                .hasMessageContaining("invalid node URI")
                .hasMessageContaining("127.0.0.1:notaport")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> Redlock.builder().nodes("redis://:hunter2/piece@127.0.0.1:1").config())
                .isInstanceOf(RedlockConfigException.class).hasMessageNotContaining("hunter2")
                .hasMessageNotContaining("piece");
        assertThatThrownBy(() -> Redlock.builder().nodes(" ").config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("blank");
    }

    @Test
    void rejectsAPortOutsideTheTcpRange() {
        assertThatThrownBy(() -> Redlock.builder().nodes("redis://:hunter2@127.0.0.1:0").config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("port 0 is outside 1-65535")
                .hasMessageNotContaining("hunter2");
        assertThatThrownBy(() -> Redlock.builder().nodes("redis://127.0.0.1:70000").config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("70000");
    }

    @Test
    void aUnixSocketWithoutTheNativeTransportIsAConfigError() {
        if (!io.lettuce.core.resource.Transports.NativeTransports.isDomainSocketSupported()) {
            assertThatThrownBy(() -> Redlock.builder().nodes("redis-socket://:hunter2@/tmp/redis.sock").config())
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining("native transport")
                    .hasMessageNotContaining("hunter2");
        } else {
            assertThat(Redlock.builder().nodes("redis-socket:///tmp/redis.sock").config().nodes()).hasSize(1);
        }
    }

    @Test
    void rejectsTheSameNodeListedTwice() {
        assertThatThrownBy(() -> Redlock.builder().nodes("redis://127.0.0.1:7001", "redis://127.0.0.1:7001/2")
                .config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("127.0.0.1:7001 is listed twice");
    }

    @Test
    void rejectsDriftFactorOutsideZeroToOneHalf() {
        assertThatThrownBy(() -> fiveNodes().driftFactor(0.5).config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("driftFactor").hasMessageContaining("0.5");
        assertThatThrownBy(() -> fiveNodes().driftFactor(-0.01).config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("-0.01");
        assertThatThrownBy(() -> fiveNodes().driftFactor(Double.NaN).config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("NaN");
        assertThat(fiveNodes().driftFactor(0).config().driftFactor()).isZero();
    }

    @Test
    void rejectsNonPositiveTtlAndTimeout() {
        assertThatThrownBy(() -> fiveNodes().defaultTtl(Duration.ZERO).config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("defaultTtl").hasMessageContaining("was 0s");
        assertThatThrownBy(() -> fiveNodes().nodeTimeout(Duration.ofMillis(-1)).config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("nodeTimeout")
                .hasMessageContaining("was -1ms");
    }

    @Test
    void rejectsANodeTimeoutThatIsNotSmallerThanTheTtl() {
        assertThatThrownBy(() -> fiveNodes().defaultTtl(Duration.ofMillis(100)).nodeTimeout(Duration.ofMillis(100))
                .config())
                .isInstanceOf(RedlockConfigException.class).hasMessageContaining("per-node timeout 100ms");
    }

    @Test
    void rejectsADefaultTtlThatCouldNeverBeGrantedAfterTheDriftAllowanceAndOneNodeTimeout() {
        assertThatThrownBy(() -> fiveNodes().nodeTimeout(Duration.ofMillis(1)).defaultTtl(Duration.ofMillis(2))
                .config()).isInstanceOf(RedlockConfigException.class)
                .hasMessageContaining("defaultTtl must leave a validity").hasMessageContaining("at least 4 ms")
                .hasMessageContaining("2ms");
        assertThat(fiveNodes().nodeTimeout(Duration.ofMillis(1)).defaultTtl(Duration.ofMillis(4)).config()
                .defaultTtl()).isEqualTo(Duration.ofMillis(4));
    }

    @Test
    void rejectsMissingCollaborators() {
        assertThatThrownBy(() -> fiveNodes().retry(null).config()).isInstanceOf(RedlockConfigException.class)
                .hasMessageContaining("retry");
        assertThatThrownBy(() -> fiveNodes().keyPrefix(null).config()).isInstanceOf(RedlockConfigException.class)
                .hasMessageContaining("keyPrefix");
        assertThatThrownBy(() -> fiveNodes().ticker(null).config()).isInstanceOf(RedlockConfigException.class)
                .hasMessageContaining("ticker");
    }

    @Test
    void aRefusalNamesTheSettingsAtFaultSoOtherLayersCanNameTheirOwn() {
        assertThatThrownBy(() -> Redlock.builder().nodes("redis://h:6379").defaultTtl(Duration.ofMillis(40)).config())
                .isInstanceOfSatisfying(RedlockConfigException.class,
                        e -> assertThat(e.settings()).containsExactly("defaultTtl", "nodeTimeout"));
        assertThatThrownBy(() -> Redlock.builder().nodes("redis://h:0").config())
                .isInstanceOfSatisfying(RedlockConfigException.class,
                        e -> assertThat(e.settings()).containsExactly("nodes"));
        assertThatThrownBy(() -> Redlock.builder().nodes("redis://h:6379").driftFactor(0.5).config())
                .isInstanceOfSatisfying(RedlockConfigException.class,
                        e -> assertThat(e.settings()).containsExactly("driftFactor"));
        assertThatThrownBy(() -> RetryPolicy.uniform(Duration.ofMillis(20), Duration.ofMillis(10)))
                .isInstanceOfSatisfying(RedlockConfigException.class,
                        e -> assertThat(e.settings()).containsExactly("retry.maxDelay", "retry.minDelay"));
        assertThatThrownBy(() -> LockOptions.builder().maxHold(Duration.ZERO).build())
                .isInstanceOfSatisfying(RedlockConfigException.class,
                        e -> assertThat(e.settings()).containsExactly("maxHold"));
    }
}
