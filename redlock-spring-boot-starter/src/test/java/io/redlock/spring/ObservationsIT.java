package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.LockNotAcquiredException;
import io.redlock.LossReason;
import io.redlock.Redlock;
import io.redlock.spring.app.LockedTestApp;
import io.redlock.spring.app.Orders;
import io.redlock.spring.app.TracedApp;
import io.redlock.spring.observation.RedlockAcquisitionContext;
import io.redlock.spring.observation.RedlockAcquisitionObservationConvention;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Acquisitions and holds as Micrometer Observations in an application with tracing, on three real nodes: spans under
 * the caller's span, tagged by result and outcome, the resource only when asked for, a loss recorded as the span's
 * error, timers from Boot's meter handler next to the starter's meters, turned off by Boot's observation property.
 */
@WithRedisNodes(3)
class ObservationsIT {

    @Test
    void anAcquisitionAndAHoldAreSpansUnderTheCallersSpan(RedisNodes nodes) {
        try (ConfigurableApplicationContext app = TracedApp.start("traced", nodesProperty(nodes))) {
            ObservationRegistry registry = app.getBean(ObservationRegistry.class);
            Observation.createNotStarted("caller", registry)
                    .observe(() -> assertThat(app.getBean(Orders.class).report("traced")).isNotNull());
            SimpleTracer tracer = app.getBean(SimpleTracer.class);
            String callerSpan = span(tracer, "caller").getSpanId();
            SimpleSpan acquire = span(tracer, "redlock acquire");
            assertThat(acquire.getParentId()).isEqualTo(callerSpan);
            assertThat(acquire.getTags()).containsEntry("redlock.result", "acquired")
                    .containsEntry("redlock.kind", "lock").doesNotContainKey("redlock.resource");
            SimpleSpan hold = span(tracer, "redlock hold");
            assertThat(hold.getParentId()).isEqualTo(callerSpan);
            assertThat(hold.getTags()).containsEntry("redlock.outcome", "released");
            assertThat(hold.getError()).isNull();
            assertThat(hold.getEndTimestamp()).isAfterOrEqualTo(acquire.getEndTimestamp());

            // Boot's meter handler times each observation, next to the starter's own meters
            MeterRegistry meters = app.getBean(MeterRegistry.class);
            assertThat(meters.get("redlock.acquisition").tag("redlock.result", "acquired").timer().count())
                    .isEqualTo(1);
            assertThat(meters.get("redlock.hold").tag("redlock.outcome", "released").timer().count()).isEqualTo(1);
            assertThat(meters.get("redlock.acquire").tags("kind", "lock", "result", "acquired").timer().count())
                    .isEqualTo(1);
        }
    }

    @Test
    void aBusyCallIsTaggedBusyAndTheResourceIsAKeyValueOnlyWhenAskedFor(RedisNodes nodes) {
        try (ConfigurableApplicationContext app = TracedApp.start("busy", nodesProperty(nodes),
                "redlock.observations.include-resource=true");
                Redlock other = Redlock.builder().nodes(nodes.uris()).nodeTimeout(Duration.ofMillis(250)).build()) {
            Lease held = other.tryAcquire("report:busy", Duration.ofSeconds(10)).orElseThrow();
            assertThat(app.getBean(Orders.class).reportIfFree("busy")).isEmpty();
            SimpleTracer tracer = app.getBean(SimpleTracer.class);
            assertThat(span(tracer, "redlock acquire").getTags()).containsEntry("redlock.result", "busy")
                    .containsEntry("redlock.resource", "report:busy");
            assertThat(spans(tracer, "redlock hold")).as("nothing was held").isEmpty();
            held.release();
        }
    }

    @Test
    void aLostLeaseEndsItsHoldWithTheLossAsTheError(RedisNodes nodes) {
        try (ConfigurableApplicationContext app = TracedApp.start("lost", nodesProperty(nodes))) {
            Runnable deleteTheLock = () -> nodes.forEach(node -> node.redis(r -> r.del("traced-loss")));
            assertThatThrownBy(() -> app.getBean(Orders.class).loseWhile("traced-loss", deleteTheLock,
                    new AtomicBoolean())).isInstanceOf(LeaseLostException.class);
            SimpleSpan hold = span(app.getBean(SimpleTracer.class), "redlock hold");
            assertThat(hold.getTags()).containsEntry("redlock.outcome", "extension_refused");
            assertThat(hold.getError()).isInstanceOfSatisfying(LeaseLostException.class,
                    lost -> assertThat(lost.reason()).isEqualTo(LossReason.EXTENSION_REFUSED));
            assertThat(app.getBean(TracedApp.class).lost).as("the application's own lease listener")
                    .containsExactly(LossReason.EXTENSION_REFUSED);
        }
    }

    @Test
    void noQuorumIsAnErrorResult(RedisNodes nodes) {
        try (ConfigurableApplicationContext app = TracedApp.start("down", nodesProperty(nodes))) {
            nodes.node(0).kill();
            nodes.node(1).kill();
            assertThatThrownBy(() -> app.getBean(Orders.class).reportOrFail("down"))
                    .isInstanceOf(LockNotAcquiredException.class);
            assertThat(span(app.getBean(SimpleTracer.class), "redlock acquire").getTags())
                    .containsEntry("redlock.result", "error");
        }
    }

    @Test
    void bootsObservationPropertyTurnsThemOff(RedisNodes nodes) {
        try (ConfigurableApplicationContext app = TracedApp.start("off", nodesProperty(nodes),
                "management.observations.enable.redlock=false")) {
            app.getBean(Orders.class).report("untraced");
            SimpleTracer tracer = app.getBean(SimpleTracer.class);
            assertThat(spans(tracer, "redlock acquire")).isEmpty();
            assertThat(spans(tracer, "redlock hold")).isEmpty();
        }
    }

    @Test
    void aConventionBeanOfTheApplicationNamesTheObservation(RedisNodes nodes) {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        RedlockAutoConfiguration.class, RedlockObservationAutoConfiguration.class))
                .withPropertyValues(nodesProperty(nodes), "redlock.node-timeout=" + LockedTestApp.NODE_TIMEOUT)
                .withBean(ObservationRegistry.class, ObservationRegistry::create)
                .withBean(SimpleTracer.class, SimpleTracer::new)
                .withBean(RedlockAcquisitionObservationConvention.class,
                        () -> new RedlockAcquisitionObservationConvention(false) {
                            @Override
                            public String getContextualName(RedlockAcquisitionContext context) {
                                return "take " + context.getResource();
                            }
                        })
                .run(context -> {
                    SimpleTracer tracer = context.getBean(SimpleTracer.class);
                    context.getBean(ObservationRegistry.class).observationConfig().observationHandler(
                            new DefaultTracingObservationHandler(tracer));
                    context.getBean(Redlock.class).tryAcquire("named", Duration.ofSeconds(5)).orElseThrow()
                            .release();
                    assertThat(span(tracer, "take named").getTags()).containsEntry("redlock.result", "acquired");
                });
    }

    private static String nodesProperty(RedisNodes nodes) {
        return "redlock.nodes=" + String.join(",", nodes.uris());
    }

    private static SimpleSpan span(SimpleTracer tracer, String name) {
        List<SimpleSpan> named = spans(tracer, name);
        assertThat(named).as("spans named '%s' of %s", name, tracer.getSpans()).hasSize(1);
        return named.get(0);
    }

    private static List<SimpleSpan> spans(SimpleTracer tracer, String name) {
        return tracer.getSpans().stream().filter(s -> name.equals(s.getName())).toList();
    }
}
