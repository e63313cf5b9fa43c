package io.redlock.spring;

import static io.redlock.spring.StarterFixtures.assertFailure;
import static io.redlock.spring.StarterFixtures.failure;
import static io.redlock.spring.StarterFixtures.findCause;
import static io.redlock.spring.StarterFixtures.runner;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Bad {@code redlock.*} properties fail start-up with a failure naming the property: the starter's own rules (one
 * mode, sentinel addresses, databases) and core's (durations, nodes) alike.
 */
class BadConfigFailureTest {

    private final ApplicationContextRunner runner = runner();

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
    void emptyNodesFail() {
        // core's checks and wording; the starter names the property (and the entry, where core quotes it)
        runner.withPropertyValues("redlock.nodes=").run(context -> assertFailure(context, "redlock.nodes",
                "redlock.nodes: no nodes: give at least one Redis URI"));
        runner.withPropertyValues("redlock.nodes[0]=redis://127.0.0.1:1", "redlock.nodes[1]= ")
                .run(context -> assertFailure(context, "redlock.nodes[1]",
                        "redlock.nodes[1]: node URI must not be blank"));
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
        // parsed as core parses a node URI, with core's wording
        runner.withPropertyValues("redlock.single.address=redis://:6379").run(context -> assertFailure(context,
                "redlock.single.address", "redlock.single.address: invalid node URI 'redis://:6379': bad port in"
                        + " ':6379'"));
        runner.withPropertyValues("redlock.single.address=127.0.0.1:notaport").run(context -> assertFailure(context,
                "redlock.single.address", "redlock.single.address: invalid node URI 'redis://127.0.0.1:notaport':"
                        + " bad port in '127.0.0.1:notaport'"));
        runner.withPropertyValues("redlock.single.address=http://127.0.0.1:6379").run(context -> assertFailure(
                context, "redlock.single.address",
                "redlock.single.address: invalid node URI 'http://127.0.0.1:6379': Scheme http not supported"));
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
        // core's LockOptions and RedlockConfig checks, named by property
        runner.withPropertyValues(node, "redlock.default-max-hold=0s").run(context -> assertFailure(context,
                "redlock.default-max-hold", "redlock.default-max-hold: maxHold must be positive, was 0s"));
        runner.withPropertyValues(node, "redlock.default-max-hold=-5m").run(context -> assertFailure(context,
                "redlock.default-max-hold", "redlock.default-max-hold: maxHold must be positive, was -5m"));
        runner.withPropertyValues(node, "redlock.default-ttl=366d").run(context -> assertFailure(context,
                "redlock.default-ttl", "redlock.default-ttl: defaultTtl must be at most 365 days, was 366d"));
    }

    @Test
    void invalidDurationsFailNamingTheProperty() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.default-ttl=soon").run(context -> {
            assertThat(context).hasFailed();
            assertThat(findCause(context.getStartupFailure(), BindException.class).getMessage())
                    .contains("redlock.default-ttl");
        });
        // core's checks and wording, named by property
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.default-ttl=0s").run(context ->
                assertFailure(context, "redlock.default-ttl", "redlock.default-ttl: defaultTtl must be positive"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.default-ttl=40ms").run(context -> {
            assertThat(failure(context).getMessage()).contains("redlock.default-ttl: defaultTtl must leave a validity"
                    + " after the clock-drift allowance (1.0 % of it + 2 ms = 2.40 ms) and the per-node timeout 50ms:"
                    + " at least 53 ms, was 40ms");
            assertThat(failure(context).properties()).containsExactly("redlock.default-ttl", "redlock.node-timeout");
        });
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.node-timeout=-1s").run(context ->
                assertFailure(context, "redlock.node-timeout", "redlock.node-timeout: nodeTimeout must be positive"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.default-wait=-1s").run(context ->
                assertFailure(context, "redlock.default-wait", "redlock.default-wait: defaultMaxWait must not be"
                        + " negative"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.retry.min-delay=300ms",
                "redlock.retry.max-delay=100ms").run(context -> assertThat(failure(context).properties())
                        .containsExactly("redlock.retry.max-delay", "redlock.retry.min-delay"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.drift-factor=0.5").run(context ->
                assertFailure(context, "redlock.drift-factor", "redlock.drift-factor: driftFactor must be in [0, 0.5)"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.fencing.enabled=false",
                "redlock.fencing.clock-floor=true").run(context ->
                        assertThat(failure(context).getMessage()).contains("redlock.fencing.clock-floor"));
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.fencing.clock-floor=false")
                .run(context -> {
                    assertThat(failure(context).properties())
                            .containsExactly("redlock.fencing.clock-floor", "redlock.fencing.counter-ttl");
                    assertThat(failure(context).action()).contains("redlock.fencing.counter-ttl=0");
                });
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.fencing.counter-ttl=1s").run(context ->
                assertFailure(context, "redlock.fencing.counter-ttl",
                        "redlock.fencing.counter-ttl: fenceCounterTtl must be zero (forever) or at least 2 s"));
    }

    @Test
    void coreRefusalsAreAnalysedNamingTheProperty() {
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.default-ttl=40ms").run(context -> {
            RedlockPropertiesException failure = failure(context);
            assertThat(failure.getCause()).as("core's exception, the one source of the rule")
                    .isInstanceOf(io.redlock.RedlockConfigException.class);
            FailureAnalysis analysis = new RedlockPropertiesFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("redlock.default-ttl", "defaultTtl must leave a validity");
            assertThat(analysis.getAction()).contains("redlock.default-ttl", "redlock.node-timeout");
        });
        runner.withPropertyValues("redlock.nodes=redis://127.0.0.1:1", "redlock.default-max-hold=0s").run(context -> {
            FailureAnalysis analysis = new RedlockPropertiesFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("redlock.default-max-hold");
            assertThat(analysis.getAction()).isEqualTo("Correct redlock.default-max-hold.");
        });
    }
}
