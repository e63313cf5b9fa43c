package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.LockNotAcquiredException;
import io.redlock.LossReason;
import io.redlock.spring.app.LockedTestApp;
import io.redlock.spring.app.Order;
import io.redlock.spring.app.Orders;
import io.redlock.spring.app.Sections;
import io.redlock.testkit.RedisNodes;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two Spring Boot applications with {@code @Locked} services on the same five real Redis nodes: mutual exclusion
 * across the applications, {@code onBusy = SKIP}, {@link Leases#current()} inside the methods, and the metrics.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LockedIT {

    private final Sections sections = new Sections();
    private RedisNodes nodes;
    private ConfigurableApplicationContext a;
    private ConfigurableApplicationContext b;

    @BeforeAll
    void start() {
        nodes = RedisNodes.start(5);
        String property = "redlock.nodes=" + String.join(",", nodes.uris());
        a = LockedTestApp.start("a", sections, property);
        b = LockedTestApp.start("b", sections, property);
    }

    @AfterAll
    void stop() {
        try {
            if (a != null) {
                a.close();
            }
            if (b != null) {
                b.close();
            }
        } finally {
            nodes.close();
        }
    }

    @Test
    void lockedMethodsNeverOverlapAcrossTwoApplications() throws Exception {
        int threadsPerApp = 3;
        int callsPerThread = 4;
        ExecutorService pool = Executors.newFixedThreadPool(2 * threadsPerApp);
        try {
            List<Future<?>> calls = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            for (ConfigurableApplicationContext app : List.of(a, b)) {
                Orders orders = app.getBean(Orders.class);
                String name = app.getId();
                for (int t = 0; t < threadsPerApp; t++) {
                    calls.add(pool.submit(() -> {
                        go.await();
                        for (int i = 0; i < callsPerThread; i++) {
                            orders.ship(new Order("42"), name);
                        }
                        return null;
                    }));
                }
            }
            go.countDown();
            for (Future<?> call : calls) {
                call.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        List<Sections.Section> all = sections.byStart();
        assertThat(all).hasSize(2 * threadsPerApp * callsPerThread);
        assertThat(all).extracting(Sections.Section::app).contains("a", "b");
        // what the lock promises: no two sections overlap while both leases are valid, and in that order the
        // tokens grow (a section whose holder was paused past its lease may overlap: fencing is for that)
        List<Sections.Section> valid = all.stream().filter(Sections.Section::validWhileRunning).toList();
        assertThat(valid).as("sections held under a valid lease").isNotEmpty();
        for (int i = 1; i < valid.size(); i++) {
            Sections.Section before = valid.get(i - 1);
            Sections.Section next = valid.get(i);
            assertThat(next.start()).as("%s started before the lease of %s ran out or it ended", next, before)
                    .isGreaterThanOrEqualTo(before.validEnd());
            assertThat(next.token()).as("fencing token of %s after %s", next, before).isGreaterThan(before.token());
        }
        assertThat(timerCount(a, "redlock.acquire", "kind", "lock", "result", "acquired")
                + timerCount(b, "redlock.acquire", "kind", "lock", "result", "acquired"))
                .isGreaterThanOrEqualTo(all.size());
    }

    @Test
    void skipReturnsAnEmptyValueWhileAnotherApplicationHoldsTheLock() throws Exception {
        Orders holder = a.getBean(Orders.class);
        Orders other = b.getBean(Orders.class);
        double busyBefore = timerCount(b, "redlock.acquire", "kind", "lock", "result", "busy");
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<?> holding = pool.submit(() -> {
                holder.hold("daily", entered, release);
                return null;
            });
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

            assertThat(other.report("daily")).isNull();
            assertThat(other.reportIfFree("daily")).isEqualTo(Optional.empty());
            assertThat(other.reportLines("daily")).isEmpty();
            assertThatThrownBy(() -> other.reportOrFail("daily")).isInstanceOf(LockNotAcquiredException.class)
                    .hasMessageContaining("report:daily");
            assertThat(other.report("weekly")).as("another resource is free").isEqualTo("report weekly");
            assertThat(timerCount(b, "redlock.acquire", "kind", "lock", "result", "busy")).isEqualTo(busyBefore + 4);

            release.countDown();
            holding.get(10, TimeUnit.SECONDS);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
        assertThat(other.report("daily")).isEqualTo("report daily");
        assertThat(other.reportLines("daily")).containsExactly("report", "daily");
    }

    @Test
    void theCurrentLeaseAndItsTokenAreReachableInsideAndNestedCallsRestoreIt() {
        Orders orders = a.getBean(Orders.class);
        assertThat(Leases.current()).isEmpty();
        List<Lease> leases = orders.nested("7");
        Lease outer = leases.get(0);
        Lease inner = leases.get(1);
        assertThat(outer.resource()).isEqualTo("outer:7");
        assertThat(inner.resource()).isEqualTo("inner:7");
        assertThat(inner.fencingToken()).isPositive();
        assertThat(outer.fencingToken()).isPositive();
        assertThat(leases.get(2)).as("the outer lease again after the inner call").isSameAs(outer);
        assertThat(leases.get(3)).as("a nested call on the same resource runs under the outer lease").isSameAs(outer);
        assertThat(outer.isValid()).as("released when the method returned").isFalse();
        assertThat(Leases.current()).isEmpty();
    }

    @Test
    void aNestedCallAfterTheOuterLeaseWasLostThrowsInsteadOfLockingAfresh() {
        Orders orders = a.getBean(Orders.class);
        java.util.concurrent.atomic.AtomicReference<Object> nested = new java.util.concurrent.atomic.AtomicReference<>();
        assertThatThrownBy(() -> orders.nestedAfterLoss("1", () -> {
            Lease outer = Leases.current().orElseThrow();
            nodes.servers().forEach(node -> node.redis(r -> r.del("broken:1"))); // its next extension is refused
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            boolean interrupted = false;
            while (!interrupted || outer.lossReason().isEmpty()) { // the loss interrupts this thread
                assertThat(System.nanoTime() - deadline).as("the loss and its interrupt within 30 s").isNegative();
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }, nested)).isInstanceOf(LeaseLostException.class);
        assertThat(nested.get()).isInstanceOf(LeaseLostException.class);
    }

    @Test
    void metricsAreRecorded() {
        Orders orders = a.getBean(Orders.class);
        MeterRegistry registry = a.getBean(MeterRegistry.class);
        assertThat(orders.activeLeasesInside()).isEqualTo(1.0);
        await().atMost(Duration.ofSeconds(30)).until(() -> registry.get("redlock.leases.active").gauge().value() == 0);
        assertThat(timerCount(a, "redlock.acquire", "kind", "lock", "result", "acquired")).isPositive();

        assertThat(orders.extendedWhileRunning()).isPositive();
        assertThat(timerCount(a, "redlock.extend", "result", "extended")).isPositive();

        double lostBefore = registry.get("redlock.lease.lost").tag("reason", "max_hold").counter().count();
        assertThatThrownBy(orders::outlive).isInstanceOfSatisfying(LeaseLostException.class,
                lost -> assertThat(lost.reason()).isEqualTo(LossReason.MAX_HOLD));
        assertThat(registry.get("redlock.lease.lost").tag("reason", "max_hold").counter().count())
                .isEqualTo(lostBefore + 1);
    }

    @Test
    void checkedExceptionsOfTheMethodPassThroughUnchanged() {
        assertThatThrownBy(() -> a.getBean(Orders.class).failChecked()).isExactlyInstanceOf(IOException.class)
                .hasMessage("boom");
    }

    private static double timerCount(ConfigurableApplicationContext app, String name, String... tags) {
        return app.getBean(MeterRegistry.class).get(name).tags(tags).timer().count();
    }
}
