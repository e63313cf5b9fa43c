package io.redlock.spring;

import static io.redlock.spring.StarterFixtures.FIVE_NODES;
import static io.redlock.spring.StarterFixtures.PASSWORD;
import static io.redlock.spring.StarterFixtures.bind;
import static io.redlock.spring.StarterFixtures.password;
import static io.redlock.spring.StarterFixtures.runner;
import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisURI;
import io.redlock.LockOptions;
import io.redlock.Redlock;
import io.redlock.RedlockConfig;
import io.redlock.RetryPolicy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.ClassPathResource;

/** The {@code redlock.*} properties of each mode bound onto the Redlock and its template, and the start-up log. */
@ExtendWith(OutputCaptureExtension.class)
class PropertiesBindingTest {

    private final ApplicationContextRunner runner = runner();

    @Test
    void nodesModeBuildsARedlockOverEveryNodeWithTheProperties(CapturedOutput output) {
        runner.withPropertyValues("redlock.nodes=" + FIVE_NODES, "redlock.default-ttl=30s", "redlock.drift-factor=0.02",
                "redlock.node-timeout=100ms", "redlock.retry.min-delay=200ms", "redlock.retry.max-delay=400ms",
                "redlock.key-prefix=app:", "redlock.fencing.enabled=false", "redlock.wake-on-release=false",
                "redlock.default-wait=5s", "redlock.default-max-hold=2m").run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(Redlock.class).hasSingleBean(RedlockTemplate.class);
                    RedlockConfig config = context.getBean(Redlock.class).config();
                    assertThat(config.nodes()).extracting(RedisURI::getPort).containsExactly(1, 2, 3, 4, 5);
                    assertThat(config.quorum()).isEqualTo(3);
                    assertThat(config.defaultTtl()).isEqualTo(Duration.ofSeconds(30));
                    assertThat(config.driftFactor()).isEqualTo(0.02);
                    assertThat(config.nodeTimeout()).isEqualTo(Duration.ofMillis(100));
                    assertThat(config.retry().minDelay()).isEqualTo(Duration.ofMillis(200));
                    assertThat(config.retry().maxDelay()).isEqualTo(Duration.ofMillis(400));
                    assertThat(config.keyPrefix()).isEqualTo("app:");
                    assertThat(config.fencing()).isFalse();
                    assertThat(config.wakeOnRelease()).isFalse();
                    assertThat(config.defaultMaxWait()).isEqualTo(Duration.ofSeconds(5));
                    LockOptions options = context.getBean(RedlockTemplate.class).defaultOptions();
                    assertThat(options.ttl()).as("the Redlock's default TTL").isEmpty();
                    assertThat(options.maxWait()).as("the Redlock's default wait").isEmpty();
                    assertThat(options.maxHold()).isEqualTo(Duration.ofMinutes(2));
                });
        assertThat(output).contains("Redlock: 5 node(s) [127.0.0.1:1, 127.0.0.1:2, 127.0.0.1:3, 127.0.0.1:4,"
                + " 127.0.0.1:5], quorum 3").doesNotContain(PASSWORD);
    }

    @Test
    void defaultsAreTheCoreDefaults() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1").run(context -> {
            RedlockConfig config = context.getBean(Redlock.class).config();
            assertThat(config.defaultTtl()).isEqualTo(RedlockConfig.DEFAULT_TTL);
            assertThat(config.driftFactor()).isEqualTo(RedlockConfig.DEFAULT_DRIFT_FACTOR);
            assertThat(config.nodeTimeout()).isEqualTo(RedlockConfig.DEFAULT_NODE_TIMEOUT);
            assertThat(config.retry().minDelay()).isEqualTo(RetryPolicy.defaults().minDelay());
            assertThat(config.retry().maxDelay()).isEqualTo(RetryPolicy.defaults().maxDelay());
            assertThat(config.keyPrefix()).isEqualTo(RedlockConfig.DEFAULT_KEY_PREFIX);
            assertThat(config.fencing()).isTrue();
            assertThat(config.fencingClockFloor()).isTrue();
            assertThat(config.fenceCounterTtl()).isEqualTo(RedlockConfig.DEFAULT_FENCE_COUNTER_TTL);
            assertThat(config.wakeOnRelease()).isTrue();
            assertThat(config.defaultMaxWait()).isEqualTo(RedlockConfig.DEFAULT_MAX_WAIT);
            LockOptions options = context.getBean(RedlockTemplate.class).defaultOptions();
            assertThat(options.toString()).isEqualTo(LockOptions.defaults().toString());
        });
    }

    @Test
    void theFenceCounterHorizonAndTheClockFloorBind() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.fencing.counter-ttl=7d").run(context ->
                assertThat(context.getBean(Redlock.class).config().fenceCounterTtl()).isEqualTo(Duration.ofDays(7)));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.fencing.counter-ttl=0",
                "redlock.fencing.clock-floor=false").run(context -> {
                    RedlockConfig config = context.getBean(Redlock.class).config();
                    assertThat(config.fenceCounterTtl()).isZero();
                    assertThat(config.fencingClockFloor()).isFalse();
                });
    }

    @Test
    void aClusterMemberIsWrittenAsClusterThenItsSeeds() {
        runner.withPropertyValues("redlock.nodes=cluster:redis://127.0.0.1:1|redis://127.0.0.1:2,redis://127.0.0.1:3,"
                + "redis://127.0.0.1:4").run(context -> {
                    RedlockConfig config = context.getBean(Redlock.class).config();
                    assertThat(config.quorum()).isEqualTo(2);
                    assertThat(config.clusterSeeds(0)).extracting(RedisURI::getPort).containsExactly(1, 2);
                    assertThat(config.clusterSeeds(1)).isEmpty();
                    assertThat(config.hashTaggedKeys()).isTrue();
                });
    }

    @Test
    void singleModeBuildsOneNodeWithPasswordAndDatabase(CapturedOutput output) {
        runner.withPropertyValues("redlock.single.address=127.0.0.1:6", "redlock.single.password=" + PASSWORD,
                "redlock.single.database=3").run(context -> {
                    assertThat(context).hasNotFailed();
                    RedlockConfig config = context.getBean(Redlock.class).config();
                    assertThat(config.nodes()).hasSize(1);
                    assertThat(config.quorum()).isEqualTo(1);
                    RedisURI node = config.nodes().get(0);
                    assertThat(node.getHost()).isEqualTo("127.0.0.1");
                    assertThat(node.getPort()).isEqualTo(6);
                    assertThat(node.getDatabase()).isEqualTo(3);
                    assertThat(password(node)).isEqualTo(PASSWORD);
                });
        runner.withPropertyValues("redlock.single.address=rediss://127.0.0.1:7/1").run(context -> {
            RedisURI node = context.getBean(Redlock.class).config().nodes().get(0);
            assertThat(node.isSsl()).isTrue();
            assertThat(node.getDatabase()).isEqualTo(1);
        });
        assertThat(output).doesNotContain(PASSWORD);
    }

    @Test
    void sentinelModeBuildsASentinelUri() {
        RedlockProperties properties = bind(Map.of("redlock.sentinel.master-name", "mymaster",
                "redlock.sentinel.addresses", "127.0.0.1:8,[::1]:9,127.0.0.2",
                "redlock.sentinel.password", PASSWORD, "redlock.sentinel.sentinel-password", "sentinel-" + PASSWORD,
                "redlock.sentinel.database", "2"));
        assertThat(RedlockPropertiesMapper.mode(properties)).isEqualTo(RedlockPropertiesMapper.Mode.SENTINEL);
        RedisURI node = RedlockPropertiesMapper.sentinelUri(properties);
        assertThat(node.toURI().getScheme()).isEqualTo("redis-sentinel");
        assertThat(node.getSentinelMasterId()).isEqualTo("mymaster");
        assertThat(node.getSentinels()).extracting(s -> s.getHost() + ":" + s.getPort())
                .containsExactly("127.0.0.1:8", "::1:9", "127.0.0.2:26379");
        assertThat(password(node.getSentinels().get(0))).isEqualTo("sentinel-" + PASSWORD);
        assertThat(password(node)).isEqualTo(PASSWORD);
        assertThat(node.getDatabase()).isEqualTo(2);
        assertThat(node.toString()).doesNotContain(PASSWORD);
    }

    @Test
    void sentinelModeThroughThePropertiesBuildsTheRedlockBean(CapturedOutput output) {
        runner.withPropertyValues("redlock.sentinel.master-name=mymaster",
                "redlock.sentinel.addresses=127.0.0.1:8,127.0.0.1:9", "redlock.sentinel.password=" + PASSWORD,
                "redlock.sentinel.database=4").run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(Redlock.class).hasSingleBean(RedlockTemplate.class);
                    RedlockConfig config = context.getBean(Redlock.class).config();
                    assertThat(config.nodes()).hasSize(1);
                    assertThat(config.quorum()).isEqualTo(1);
                    RedisURI node = config.nodes().get(0);
                    assertThat(node.getSentinelMasterId()).isEqualTo("mymaster");
                    assertThat(node.getSentinels()).extracting(s -> s.getHost() + ":" + s.getPort())
                            .containsExactly("127.0.0.1:8", "127.0.0.1:9");
                    assertThat(node.getDatabase()).isEqualTo(4);
                    assertThat(password(node)).isEqualTo(PASSWORD);
                });
        assertThat(output).contains(RedlockPropertiesMapper.SENTINEL_CAVEAT)
                .contains("Redlock: 1 node(s) [sentinel:mymaster@127.0.0.1:8,127.0.0.1:9], quorum 1")
                .doesNotContain(PASSWORD);
    }

    @Test
    void twoNodesLogAWarningThatBothMustAnswer(CapturedOutput output) {
        String warning = "Redlock with 2 nodes needs both to answer (quorum 2): use an odd number, at least 3";
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1,redis://127.0.0.1:2")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output).contains(warning);
        int afterTwo = output.getAll().length();
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3")
                .run(context -> assertThat(context).hasNotFailed());
        assertThat(output.getAll().substring(afterTwo)).as("three nodes: no warning")
                .contains("Redlock: 3 node(s)").doesNotContain(warning);
    }

    @Test
    void configurationMetadataDescribesTheProperties() throws Exception {
        String json = new ClassPathResource("META-INF/spring-configuration-metadata.json")
                .getContentAsString(StandardCharsets.UTF_8);
        for (String property : List.of("redlock.nodes", "redlock.single.address", "redlock.single.password",
                "redlock.single.database", "redlock.sentinel.master-name", "redlock.sentinel.addresses",
                "redlock.default-ttl", "redlock.drift-factor", "redlock.node-timeout", "redlock.retry.min-delay",
                "redlock.retry.max-delay", "redlock.key-prefix", "redlock.fencing.enabled")) {
            assertThat(json).contains("\"name\": \"" + property + "\"");
        }
        assertThat(new ClassPathResource("META-INF/spring/org.springframework.boot.autoconfigure"
                + ".AutoConfiguration.imports").getContentAsString(StandardCharsets.UTF_8))
                .contains(RedlockAutoConfiguration.class.getName(), RedlockLockedAutoConfiguration.class.getName(),
                        RedlockMetricsAutoConfiguration.class.getName(), RedlockHealthAutoConfiguration.class.getName());
    }
}
