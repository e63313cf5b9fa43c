package io.redlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
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
 * per tick, never in both at once, and lockAtLeastFor spaces the runs even though the job returns at once.
 */
@WithRedisNodes(3)
class SchedulerLockIT {

    static final long TICK_MILLIS = 200;
    static final long AT_LEAST_MILLIS = 150;
    static final long WORK_MILLIS = 30;
    static final Duration NODE_TIMEOUT = Duration.ofMillis(20);
    /** Every run of the job in either application: which one, start and end (nanoTime). */
    static final Queue<long[]> RUNS = new ConcurrentLinkedQueue<>();

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
            await().atMost(Duration.ofSeconds(20)).until(() -> RUNS.size() >= 10);
        } finally {
            apps.forEach(ConfigurableApplicationContext::close);
        }
        long ran = System.nanoTime() - start;
        List<long[]> runs = RUNS.stream().sorted((a, b) -> Long.compare(a[1], b[1])).toList();
        for (int i = 1; i < runs.size(); i++) {
            long[] before = runs.get(i - 1);
            long[] run = runs.get(i);
            assertThat(run[1]).as("run %d starts after run %d ended", i, i - 1).isGreaterThanOrEqualTo(before[2]);
            // lockAtLeastFor, less what an unlock may give up (two node timeouts, see RedlockSimpleLock)
            assertThat(Duration.ofNanos(run[1] - before[1])).as("runs %d and %d", i - 1, i)
                    .isGreaterThanOrEqualTo(Duration.ofMillis(AT_LEAST_MILLIS).minus(NODE_TIMEOUT.multipliedBy(2)));
        }
        long ticks = Duration.ofNanos(ran).toMillis() / TICK_MILLIS;
        assertThat((long) runs.size()).as("runs in %d ticks of each of 2 applications", ticks).isLessThanOrEqualTo(
                ticks + 1);
        assertThat(runs.stream().mapToLong(run -> run[0]).distinct().count()).as("applications that ran it")
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
        @SchedulerLock(name = "tick", lockAtLeastFor = "PT0.15S", lockAtMostFor = "PT5S")
        public void run() throws InterruptedException {
            long started = System.nanoTime();
            Thread.sleep(WORK_MILLIS); // the job's work
            RUNS.add(new long[] {app, started, System.nanoTime()});
        }
    }
}
