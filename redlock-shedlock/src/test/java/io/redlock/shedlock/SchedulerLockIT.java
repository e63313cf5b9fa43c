package io.redlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.Lease;
import io.redlock.Redlock;
import io.redlock.RedlockConfig;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * Two Boot applications run one {@code @Scheduled} job under {@code @SchedulerLock} with this provider: it runs once
 * per tick, never in both at once while its lock is valid, and lockAtLeastFor spaces the runs even though the job
 * returns at once. Each run records its lease (RedlockLockProvider.currentLease()): the runs are ordered by their
 * acquisitions, whose start is read from the lease's validity ({@code validUntil = start + lockAtMostFor - drift}),
 * as a run's method may begin late (a paused thread) but its acquisition cannot move. The node timeout is long
 * enough for an unlock's re-expiry to be confirmed on a loaded machine (unconfirmed, it is a release).
 */
@WithRedisNodes(3)
class SchedulerLockIT {

    static final long TICK_MILLIS = 1000;
    /** Above half a tick, so two applications' ticks cannot both run in one tick, whatever their phase. */
    static final long AT_LEAST_MILLIS = 800;
    static final long AT_MOST_MILLIS = 5000;
    static final long WORK_MILLIS = 30;
    static final Duration NODE_TIMEOUT = Duration.ofMillis(200);
    static final int RUN_COUNT = 6;
    /** Every run of the job in either application. */
    static final Queue<Run> RUNS = new ConcurrentLinkedQueue<>();

    /** A run: which application, start and end (nanoTime), its lease's fencing token and validity deadline. */
    record Run(long app, long start, long end, long token, long validUntil) {

        /** When its acquisition started: the lease's deadline less lockAtMostFor, plus the drift allowance. */
        long acquisitionStart() {
            long atMost = Duration.ofMillis(AT_MOST_MILLIS).toNanos();
            return validUntil - atMost + (long) (atMost * RedlockConfig.DEFAULT_DRIFT_FACTOR)
                    + Duration.ofMillis(2).toNanos();
        }
    }

    @Test
    void twoApplicationsRunTheJobOncePerTickAndNeverTogether(RedisNodes nodes) {
        RUNS.clear();
        List<ConfigurableApplicationContext> apps = new ArrayList<>();
        long start = System.nanoTime();
        try {
            for (int app = 1; app <= 2; app++) {
                apps.add(new SpringApplicationBuilder(TickApp.class).web(WebApplicationType.NONE)
                        .properties("test.nodes=" + String.join(",", nodes.uris()), "test.app=" + app).run());
            }
            await().atMost(Duration.ofSeconds(90)).until(() -> RUNS.size() >= RUN_COUNT);
        } finally {
            apps.forEach(ConfigurableApplicationContext::close);
        }
        long ran = System.nanoTime() - start;
        List<Run> runs = RUNS.stream().sorted(Comparator.comparingLong(Run::validUntil)).toList();
        for (int i = 1; i < runs.size(); i++) {
            Run before = runs.get(i - 1);
            Run run = runs.get(i);
            // acquired once the previous run's lock was unlocked (after its end) or had expired (after its validity)
            assertThat(run.start()).as("run %d starts after run %d ended or its lock ran out", i, i - 1)
                    .isGreaterThanOrEqualTo(Math.min(before.end(), before.validUntil()));
            // lockAtLeastFor, never shortened
            assertThat(Duration.ofNanos(run.start() - before.acquisitionStart())).as("runs %d and %d", i - 1, i)
                    .isGreaterThanOrEqualTo(Duration.ofMillis(AT_LEAST_MILLIS));
            assertThat(run.token()).as("fencing token of run %d", i).isGreaterThan(before.token());
        }
        long ticks = Duration.ofNanos(ran).toMillis() / TICK_MILLIS;
        assertThat((long) runs.size()).as("runs in %d ticks of each of 2 applications", ticks).isLessThanOrEqualTo(
                ticks + 1);
        assertThat(runs.stream().mapToLong(Run::app).distinct().count()).as("applications that ran it")
                .isBetween(1L, 2L);
    }

    @SpringBootConfiguration
    @EnableScheduling
    @EnableSchedulerLock(defaultLockAtMostFor = "5s")
    static class TickApp {

        @Bean(destroyMethod = "close")
        Redlock redlock(Environment environment) {
            return Redlock.builder().nodes(environment.getRequiredProperty("test.nodes").split(","))
                    .nodeTimeout(NODE_TIMEOUT).build();
        }

        @Bean
        LockProvider lockProvider(Redlock redlock) {
            return new RedlockLockProvider(redlock);
        }

        @Bean
        Job job(Environment environment) {
            return new Job(Long.parseLong(environment.getRequiredProperty("test.app")));
        }
    }

    static class Job {

        private final long app;

        Job(long app) {
            this.app = app;
        }

        @Scheduled(fixedRate = TICK_MILLIS)
        @SchedulerLock(name = "tick", lockAtLeastFor = "PT0.8S", lockAtMostFor = "PT5S")
        public void run() throws InterruptedException {
            long started = System.nanoTime();
            Lease lease = RedlockLockProvider.currentLease().orElseThrow();
            Thread.sleep(WORK_MILLIS); // the job's work
            RUNS.add(new Run(app, started, System.nanoTime(), lease.fencingToken(), lease.validUntil()));
        }
    }
}
