package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.redlock.Lease;
import io.redlock.LeaseListener;
import io.redlock.LockOptions;
import io.redlock.LossReason;
import io.redlock.NodeFailure;
import io.redlock.Redlock;
import io.redlock.RedlockConfig;
import io.redlock.RedlockException;
import io.redlock.RedlockObserver;
import io.redlock.RetryPolicy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.aop.Advisor;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;

/**
 * Every property path and failure message of the auto-configuration, with {@link ApplicationContextRunner}. The
 * nodes here are loopback ports nobody listens on: nothing in these tests needs a Redis to answer (a Redlock connects
 * in the background); the behaviour against real servers is in {@code LockedIT} and {@code HealthIT}.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedlockAutoConfigurationTest {

    private static final String PASSWORD = "hunter2-do-not-print";
    private static final String FIVE_NODES = "redis://127.0.0.1:1,redis://127.0.0.1:2,redis://127.0.0.1:3,"
            + "redis://:" + PASSWORD + "@127.0.0.1:4,redis://127.0.0.1:5";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RedlockAutoConfiguration.class,
                    RedlockLockedAutoConfiguration.class, RedlockMetricsAutoConfiguration.class,
                    RedlockHealthAutoConfiguration.class));

    // ---- modes ------------------------------------------------------------------------------------------------

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
            assertThat(config.fencingClockFloor()).isFalse();
            assertThat(config.wakeOnRelease()).isTrue();
            assertThat(config.defaultMaxWait()).isEqualTo(RedlockConfig.DEFAULT_MAX_WAIT);
            LockOptions options = context.getBean(RedlockTemplate.class).defaultOptions();
            assertThat(options.toString()).isEqualTo(LockOptions.defaults().toString());
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
    void twoModesFailNamingBothProperties() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.single.address=127.0.0.1:2")
                .run(context -> assertThat(failure(context).getMessage())
                        .contains("redlock.nodes and redlock.single.address are both set"));
        runner.withPropertyValues("redlock.single.address=127.0.0.1:2", "redlock.sentinel.master-name=m",
                "redlock.sentinel.addresses=127.0.0.1:3").run(context -> assertThat(failure(context).properties())
                        .containsExactly("redlock.single.address", "redlock.sentinel.master-name"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.single.address=127.0.0.1:2",
                "redlock.sentinel.master-name=m").run(context -> assertThat(failure(context).getMessage()).contains(
                        "redlock.nodes, redlock.single.address and redlock.sentinel.master-name are all set"));
    }

    @Test
    void noModeFailsNamingTheThreeProperties() {
        runner.run(context -> {
            RedlockPropertiesException failure = failure(context);
            assertThat(failure.getMessage()).contains("no Redis node is configured")
                    .contains("redlock.nodes", "redlock.single.address", "redlock.sentinel.master-name");
            FailureAnalysis analysis = new RedlockPropertiesFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("redlock.nodes");
            assertThat(analysis.getAction()).contains("Set exactly one of: redlock.nodes");
        });
    }

    @Test
    void emptyNodesFail() {
        runner.withPropertyValues("redlock.nodes=").run(context -> assertThat(failure(context).getMessage())
                .contains("redlock.nodes is empty"));
        runner.withPropertyValues("redlock.nodes[0]=redis://127.0.0.1:1", "redlock.nodes[1]= ")
                .run(context -> assertThat(failure(context).getMessage()).contains("redlock.nodes[1] is blank"));
    }

    @Test
    void incompleteSentinelSettingsFail() {
        runner.withPropertyValues("redlock.sentinel.master-name=mymaster").run(context -> assertThat(
                failure(context).getMessage()).contains("redlock.sentinel.master-name is set but"
                        + " redlock.sentinel.addresses lists no sentinel"));
        runner.withPropertyValues("redlock.sentinel.addresses=127.0.0.1:8").run(context -> assertThat(
                failure(context).getMessage()).contains("redlock.sentinel.addresses is set but"
                        + " redlock.sentinel.master-name is not"));
        runner.withPropertyValues("redlock.sentinel.master-name=m", "redlock.sentinel.addresses=127.0.0.1:notaport")
                .run(context -> assertThat(failure(context).getMessage())
                        .contains("redlock.sentinel.addresses[0] '127.0.0.1:notaport' has a bad port"));
    }

    @Test
    void malformedSentinelAddressesFailNamingTheEntry() {
        String[] master = {"redlock.sentinel.master-name=m"};
        runner.withPropertyValues(master).withPropertyValues("redlock.sentinel.addresses=redis://127.0.0.1:26379")
                .run(context -> assertFailure(context, "redlock.sentinel.addresses[0]",
                        "redlock.sentinel.addresses[0] 'redis://127.0.0.1:26379' must be host:port, not a URI"));
        runner.withPropertyValues(master).withPropertyValues("redlock.sentinel.addresses=[::1:26379")
                .run(context -> assertFailure(context, "redlock.sentinel.addresses[0]",
                        "redlock.sentinel.addresses[0] '[::1:26379' has no closing ']'"));
        runner.withPropertyValues(master).withPropertyValues("redlock.sentinel.addresses[0]=127.0.0.1:26379",
                "redlock.sentinel.addresses[1]= ").run(context -> assertFailure(context,
                        "redlock.sentinel.addresses[1]", "redlock.sentinel.addresses[1] is blank"));
        runner.withPropertyValues(master).withPropertyValues("redlock.sentinel.addresses=:26379")
                .run(context -> assertFailure(context, "redlock.sentinel.addresses[0]",
                        "redlock.sentinel.addresses[0] ':26379' has no host"));
    }

    @Test
    void malformedSingleAddressesFailNamingTheProperty() {
        runner.withPropertyValues("redlock.single.address=redis://:6379").run(context -> assertFailure(context,
                "redlock.single.address", "redlock.single.address 'redis://:6379' has no host"));
        runner.withPropertyValues("redlock.single.address=127.0.0.1:notaport").run(context -> assertFailure(context,
                "redlock.single.address", "redlock.single.address '127.0.0.1:notaport' has a bad port"));
        runner.withPropertyValues("redlock.single.address=http://127.0.0.1:6379").run(context -> assertFailure(
                context, "redlock.single.address",
                "redlock.single.address 'http://127.0.0.1:6379' is not a Redis address (Scheme http not supported)"));
    }

    @Test
    void negativeDatabasesFailNamingTheProperty() {
        runner.withPropertyValues("redlock.single.address=127.0.0.1:6", "redlock.single.database=-1")
                .run(context -> assertFailure(context, "redlock.single.database",
                        "redlock.single.database must not be negative, was -1"));
        runner.withPropertyValues("redlock.sentinel.master-name=m", "redlock.sentinel.addresses=127.0.0.1:8",
                "redlock.sentinel.database=-2").run(context -> assertFailure(context, "redlock.sentinel.database",
                        "redlock.sentinel.database must not be negative, was -2"));
    }

    @Test
    void aMaxHoldThatIsNotPositiveOrATtlAboveAYearFails() {
        String node = "redlock.nodes=redis://127.0.0.1:1";
        runner.withPropertyValues(node, "redlock.default-max-hold=0s").run(context -> assertFailure(context,
                "redlock.default-max-hold", "redlock.default-max-hold must be a positive duration"));
        runner.withPropertyValues(node, "redlock.default-max-hold=-5m").run(context -> assertFailure(context,
                "redlock.default-max-hold", "redlock.default-max-hold must be a positive duration"));
        runner.withPropertyValues(node, "redlock.default-ttl=366d").run(context -> assertFailure(context,
                "redlock.default-ttl", "redlock.default-ttl must be at most 365 days, was PT8784H"));
    }

    @Test
    void invalidDurationsFailNamingTheProperty() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.default-ttl=soon").run(context -> {
            assertThat(context).hasFailed();
            assertThat(findCause(context.getStartupFailure(), BindException.class).getMessage())
                    .contains("redlock.default-ttl");
        });
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.default-ttl=0s").run(context ->
                assertThat(failure(context).getMessage()).contains("redlock.default-ttl must be a positive duration"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.default-ttl=40ms").run(context ->
                assertThat(failure(context).getMessage()).contains(
                        "redlock.default-ttl (PT0.04S) must be larger than redlock.node-timeout (PT0.05S)"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.node-timeout=-1s").run(context ->
                assertThat(failure(context).getMessage()).contains("redlock.node-timeout must be a positive"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.default-wait=-1s").run(context ->
                assertThat(failure(context).getMessage()).contains("redlock.default-wait must be zero or positive"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.retry.min-delay=300ms",
                "redlock.retry.max-delay=100ms").run(context -> assertThat(failure(context).properties())
                        .containsExactly("redlock.retry.max-delay", "redlock.retry.min-delay"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.drift-factor=0.5").run(context ->
                assertThat(failure(context).getMessage()).contains("redlock.drift-factor must be in [0, 0.5)"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.fencing.enabled=false",
                "redlock.fencing.clock-floor=true").run(context ->
                        assertThat(failure(context).getMessage()).contains("redlock.fencing.clock-floor"));
    }

    @Test
    void passwordsNeverAppearInFailures(CapturedOutput output) {
        // the same node twice, a bad port, a bad single address: core and starter messages alike
        List<String[]> cases = List.of(
                new String[] {"redlock.nodes=redis://:" + PASSWORD + "@127.0.0.1:1,redis://:" + PASSWORD
                        + "@127.0.0.1:1"},
                new String[] {"redlock.nodes=redis://user:" + PASSWORD + "@127.0.0.1:notaport"},
                new String[] {"redlock.single.address=redis://user:" + PASSWORD + "@127.0.0.1:abc",
                        "redlock.single.password=" + PASSWORD});
        for (String[] properties : cases) {
            runner.withPropertyValues(properties).run(context -> {
                RedlockPropertiesException failure = failure(context);
                assertThat(failure.properties()).hasSize(1);
                assertThat(allMessages(context.getStartupFailure())).doesNotContain(PASSWORD);
            });
        }
        runner.withPropertyValues("redlock.nodes=redis://:" + PASSWORD + "@127.0.0.1:1,redis://:" + PASSWORD
                + "@127.0.0.1:1").run(context -> assertThat(failure(context).getMessage())
                        .contains("redlock.nodes: node 127.0.0.1:1 is listed twice"));
        runner.withPropertyValues("redlock.nodes=redis://user:" + PASSWORD + "@127.0.0.1:notaport").run(context ->
                assertThat(failure(context).getMessage()).contains("redis://***@127.0.0.1:notaport"));
        assertThat(output).doesNotContain(PASSWORD);
    }

    @Test
    void maskingReplacesUserInfo() {
        assertThat(Masking.maskUri("redis://user:pass@h:1,rediss://:pw@h2:2/0 and redis://h3:3"))
                .isEqualTo("redis://***@h:1,rediss://***@h2:2/0 and redis://h3:3");
        assertThat(Masking.scrub("oops s3cret", "s3cret")).isEqualTo("oops ***");
    }

    // ---- beans ----------------------------------------------------------------------------------------------------

    @Test
    void userBeansReplaceTheAutoConfiguredOnes() {
        runner.withUserConfiguration(UserBeans.class).run(context -> {
            assertThat(context).hasNotFailed(); // no redlock.* properties needed with a user Redlock
            assertThat(context).getBean(Redlock.class).isSameAs(context.getBean("userRedlock"));
            assertThat(context).getBean(RedlockTemplate.class).isSameAs(context.getBean("userTemplate"));
            assertThat(context.getBean(RedlockTemplate.class).defaultOptions().ttl()).contains(Duration.ofSeconds(7));
            assertThat(context).getBean(RedlockMetrics.class).isSameAs(context.getBean("userMetrics"));
            assertThat(context).getBean("redlockHealthIndicator").isSameAs(context.getBean(UserBeans.class).health);
        });
        // a user Redlock alone: our template wraps it
        runner.withBean("userRedlock", Redlock.class, () -> Redlock.builder().nodes("redis://127.0.0.1:1").build())
                .run(context -> assertThat(context.getBean(RedlockTemplate.class).redlock())
                        .isSameAs(context.getBean("userRedlock")));
    }

    @Test
    void theRedlockIsClosedWhenTheContextCloses() {
        AtomicReference<Redlock> bean = new AtomicReference<>();
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1").run(context -> {
            bean.set(context.getBean(Redlock.class));
            assertThat(bean.get().ping()).as("open while the context runs").hasSize(1);
        });
        assertThatThrownBy(() -> bean.get().tryAcquire("after-shutdown")).isInstanceOf(RedlockException.class)
                .hasMessage("this Redlock is closed");
        assertThatThrownBy(() -> bean.get().ping()).isInstanceOf(RedlockException.class)
                .hasMessage("this Redlock is closed");
    }

    @Test
    void theHealthIsDownWithPerNodeErrorsWhenNoNodeAnswers() {
        runner.withPropertyValues("redlock.nodes=" + FIVE_NODES).run(context -> {
            Health health = context.getBean(RedlockHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("quorum", 3).containsEntry("answered", 0)
                    .containsEntry("nodeTimeout", "50ms");
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> nodes = (Map<String, Map<String, Object>>) health.getDetails().get("nodes");
            assertThat(nodes).hasSize(5).containsKey("127.0.0.1:4").allSatisfy((node, details) ->
                    assertThat(details).containsEntry("answered", false).containsKey("error"));
            assertThat(health.toString()).doesNotContain(PASSWORD);
        });
    }

    @Test
    void nodeTagsAreHostAndPortAndASentinelMasterIsTaggedByName() {
        assertThat(NodeNames.of("10.0.0.1:6379")).isEqualTo("10.0.0.1:6379");
        assertThat(NodeNames.of("sentinel:mymaster@10.0.0.1:26379,10.0.0.2:26379")).isEqualTo("mymaster");
        assertThat(NodeNames.of("unix:/tmp/redis.sock")).isEqualTo("unix:/tmp/redis.sock");
        runner.withPropertyValues("redlock.sentinel.master-name=orders-master",
                "redlock.sentinel.addresses=127.0.0.1:8,127.0.0.1:9")
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
                    RedlockObserver observer = context.getBean(Redlock.class).config().observer().orElseThrow();
                    observer.nodeFailed(new NodeFailure("sentinel:orders-master@127.0.0.1:8,127.0.0.1:9",
                            NodeFailure.Kind.TIMEOUT, "no reply"));
                    assertThat(context.getBean(MeterRegistry.class).get("redlock.node.errors")
                            .tags("node", "orders-master", "kind", "timeout").counter().count()).isEqualTo(1);
                });
    }

    @Test
    void observersAndListenersAreComposedWithTheMetrics() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1").withUserConfiguration(Observers.class)
                .run(context -> {
                    RedlockConfig config = context.getBean(Redlock.class).config();
                    assertThat(config.observer()).get().isInstanceOf(CompositeRedlockObserver.class);
                    assertThat(((CompositeRedlockObserver) config.observer().get()).observers())
                            .containsExactlyInAnyOrder(context.getBean(RedlockMetrics.class),
                                    context.getBean("userObserver", RedlockObserver.class));
                    assertThat(((CompositeLeaseListener) config.leaseListener().get()).listeners())
                            .containsExactlyInAnyOrder(context.getBean(RedlockMetrics.class),
                                    context.getBean("userListener", LeaseListener.class));
                    // one that throws does not keep the other from being told
                    config.observer().get().acquisition("r", RedlockObserver.AcquireResult.BUSY, Duration.ofMillis(3));
                    assertThat(context.getBean(MeterRegistry.class).get("redlock.acquire").tag("result", "busy")
                            .timer().count()).isEqualTo(1);
                });
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withBean("only", RedlockObserver.class, () -> new RedlockObserver() { })
                .run(context -> assertThat(context.getBean(Redlock.class).config().observer())
                        .containsSame(context.getBean("only", RedlockObserver.class)));
    }

    @Test
    void metricsOnlyWithAMeterRegistry() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1").run(context -> {
            assertThat(context).doesNotHaveBean(RedlockMetrics.class);
            assertThat(context.getBean(Redlock.class).config().observer()).isEmpty();
            assertThat(context.getBean(Redlock.class).config().leaseListener()).isEmpty();
        });
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
                    assertThat(context).hasSingleBean(RedlockMetrics.class);
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(context.getBean(Redlock.class).config().observer())
                            .containsSame(context.getBean(RedlockMetrics.class));
                    assertThat(registry.get("redlock.leases.active").gauge().value()).isZero();
                    assertThat(registry.get("redlock.acquire").tag("result", "acquired").timer().count()).isZero();
                    assertThat(registry.get("redlock.extend").tag("result", "failed").timer().count()).isZero();
                    context.getBean(RedlockMetrics.class).onLost(null, LossReason.MAX_HOLD);
                    assertThat(registry.get("redlock.lease.lost").tag("reason", "max_hold").counter().count())
                            .isEqualTo(1);
                });
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withClassLoader(new FilteredClassLoader(MeterRegistry.class))
                .run(context -> assertThat(context).doesNotHaveBean(RedlockMetrics.class));
    }

    @Test
    void healthIndicatorOnlyWithActuator() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .run(context -> assertThat(context).hasSingleBean(RedlockHealthIndicator.class));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(RedlockHealthIndicator.class));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "management.health.redlock.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(RedlockHealthIndicator.class));
    }

    @Test
    void lockedAdvisorOnlyWithSpringAop() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .run(context -> assertThat(context).hasSingleBean(LockedAdvisor.class));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1")
                .withClassLoader(new FilteredClassLoader(Advisor.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LockedAdvisor.class));
    }

    @Test
    void disabledMeansNoBeans() {
        runner.withPropertyValues("redlock.enabled=false").run(context -> assertThat(context).hasNotFailed()
                .doesNotHaveBean(Redlock.class).doesNotHaveBean(RedlockTemplate.class)
                .doesNotHaveBean(RedlockHealthIndicator.class));
    }

    @Test
    void badLockedAnnotationsFailAtStartupNamingTheMethod() {
        String[] nodes = {"redlock.nodes=redis://127.0.0.1:1"};
        runner.withPropertyValues(nodes).withBean(BadTtl.class).run(context -> assertThat(allMessages(
                context.getStartupFailure())).contains("@Locked on " + BadTtl.class.getName() + ".run()",
                        "ttl 'soon' is not a duration"));
        runner.withPropertyValues(nodes).withBean(BadSpel.class).run(context -> assertThat(allMessages(
                context.getStartupFailure())).contains("BadSpel.run(): resource ''orders:' + ' is not a SpEL expression"));
        runner.withPropertyValues(nodes).withBean(SkipOnPrimitive.class).run(context -> assertThat(allMessages(
                context.getStartupFailure())).contains("onBusy = SKIP needs a method returning void or an object"));
        runner.withPropertyValues(nodes).withBean(Async.class).run(context -> assertThat(allMessages(
                context.getStartupFailure())).contains("returns java.util.concurrent.CompletableFuture"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "my.ttl=45s").withBean(Placeholder.class).run(context -> {
            assertThat(context).hasNotFailed();
            LockedAdvisor advisor = context.getBean(LockedAdvisor.class);
            assertThat(org.springframework.aop.support.AopUtils.isAopProxy(context.getBean(Placeholder.class))).isTrue();
            assertThat(advisor.getPointcut().getMethodMatcher().matches(
                    Placeholder.class.getMethod("run"), Placeholder.class)).isTrue();
        });
    }

    @Test
    void skippedCallsReturnAnEmptyValueOfTheDeclaredType() {
        assertThat(LockedOperationSource.skippedValue(void.class).get()).isNull();
        assertThat(LockedOperationSource.skippedValue(String.class).get()).isNull();
        assertThat(LockedOperationSource.skippedValue(java.util.Optional.class).get()).isEqualTo(java.util.Optional.empty());
        assertThat(LockedOperationSource.skippedValue(List.class).get()).isEqualTo(List.of());
        assertThat(LockedOperationSource.skippedValue(java.util.Collection.class).get()).isEqualTo(List.of());
        assertThat(LockedOperationSource.skippedValue(java.util.Set.class).get()).isEqualTo(java.util.Set.of());
        assertThat(LockedOperationSource.skippedValue(java.util.Map.class).get()).isEqualTo(java.util.Map.of());
        assertThat(LockedOperationSource.skippedValue(ArrayList.class).get()).isNull();
        assertThat(LockedOperationSource.skippedValue(int.class)).isNull();
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

    // ---- helpers ----------------------------------------------------------------------------------------------------

    private static RedlockPropertiesException failure(AssertableApplicationContext context) {
        assertThat(context).hasFailed();
        RedlockPropertiesException failure = findCause(context.getStartupFailure(), RedlockPropertiesException.class);
        assertThat(failure).as("a RedlockPropertiesException in %s", context.getStartupFailure()).isNotNull();
        assertThat(failure.getMessage()).doesNotContain(PASSWORD);
        return failure;
    }

    private static void assertFailure(AssertableApplicationContext context, String property, String message) {
        RedlockPropertiesException failure = failure(context);
        assertThat(failure.properties()).containsExactly(property);
        assertThat(failure.getMessage()).contains(message);
    }

    private static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private static String allMessages(Throwable failure) {
        List<String> messages = new ArrayList<>();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.add(t.toString());
        }
        return messages.stream().collect(Collectors.joining("\n"));
    }

    private static RedlockProperties bind(Map<String, String> properties) {
        return new Binder(new MapConfigurationPropertySource(properties)).bind("redlock", RedlockProperties.class)
                .get();
    }

    private static String password(RedisURI uri) {
        RedisCredentials credentials = uri.getCredentialsProvider().resolveCredentials().block(Duration.ofSeconds(1));
        return credentials == null || credentials.getPassword() == null ? null
                : new String(credentials.getPassword());
    }

    @Configuration(proxyBeanMethods = false)
    static class UserBeans {
        final HealthIndicator health = () -> org.springframework.boot.actuate.health.Health.up().build();

        @Bean(destroyMethod = "close")
        Redlock userRedlock() {
            return Redlock.builder().nodes("redis://127.0.0.1:1").build();
        }

        @Bean
        RedlockTemplate userTemplate(Redlock redlock) {
            return new RedlockTemplate(redlock, LockOptions.builder().ttl(Duration.ofSeconds(7)).build());
        }

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        RedlockMetrics userMetrics(MeterRegistry registry) {
            return new RedlockMetrics(registry);
        }

        @Bean
        HealthIndicator redlockHealthIndicator() {
            return health;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Observers {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        RedlockObserver userObserver() {
            return new RedlockObserver() {
                @Override
                public void acquisition(String resource, AcquireResult result, Duration took) {
                    throw new IllegalStateException("a broken observer");
                }
            };
        }

        @Bean
        LeaseListener userListener() {
            return (Lease lease, LossReason reason) -> { };
        }
    }

    static class BadTtl {
        @Locked(resource = "'x'", ttl = "soon")
        public void run() {
        }
    }

    static class BadSpel {
        @Locked(resource = "'orders:' + ")
        public void run() {
        }
    }

    static class SkipOnPrimitive {
        @Locked(resource = "'x'", onBusy = OnBusy.SKIP)
        public int run() {
            return 1;
        }
    }

    static class Async {
        @Locked(resource = "'x'")
        public java.util.concurrent.CompletableFuture<String> run() {
            return java.util.concurrent.CompletableFuture.completedFuture("x");
        }
    }

    static class Placeholder {
        @Locked(resource = "'x'", ttl = "${my.ttl}", maxWait = "${my.wait:0s}")
        public void run() {
        }
    }
}
