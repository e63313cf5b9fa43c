package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.RedlockConfig;
import io.redlock.spring.app.Sections;
import io.redlock.spring.app.TickJob;
import io.redlock.spring.app.TickingApp;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code @Locked(lockAtLeastFor)} on a {@code @Scheduled} job in two applications: the job ticks every 50 ms in both
 * and takes 10 ms, but the lock stays taken {@link TickJob#AT_LEAST_MILLIS} after each run's acquisition started
 * ({@code Lease.releaseAfter} never shortens it), so each run starts at least that long after the previous run's
 * acquisition started. That moment is read from the previous lease's validity ({@code validUntil = start + ttl -
 * drift}), not from when its method began, which a pause may delay.
 */
@WithRedisNodes(3)
class ScheduledLockedIT {

    private static final Duration NODE_TIMEOUT = Duration.ofMillis(300);
    private static final int RUNS = 5;

    @Test
    void aJobThatReturnsAtOnceKeepsTheLockForLockAtLeastForAcrossTwoApplications(RedisNodes nodes) {
        Sections sections = new Sections();
        List<ConfigurableApplicationContext> apps = new ArrayList<>();
        try {
            for (String name : List.of("a", "b")) {
                apps.add(TickingApp.start(name, sections, "redlock.nodes=" + String.join(",", nodes.uris()),
                        "redlock.node-timeout=" + NODE_TIMEOUT.toMillis() + "ms"));
            }
            await().atMost(Duration.ofSeconds(90)).until(() -> sections.byStart().size() >= RUNS);
        } finally {
            apps.forEach(ConfigurableApplicationContext::close);
        }
        // in the order of their acquisitions (a run's method may begin late, its acquisition cannot move)
        List<Sections.Section> runs = sections.byStart().stream()
                .sorted(Comparator.comparingLong(Sections.Section::validUntil)).toList();
        Duration apart = Duration.ofMillis(TickJob.AT_LEAST_MILLIS);
        long ttl = Duration.ofMillis(TickJob.TTL_MILLIS).toNanos();
        long drift = (long) (ttl * RedlockConfig.DEFAULT_DRIFT_FACTOR) + Duration.ofMillis(2).toNanos();
        for (int i = 1; i < runs.size(); i++) {
            long previousAcquisition = runs.get(i - 1).validUntil() - ttl + drift;
            assertThat(Duration.ofNanos(runs.get(i).start() - previousAcquisition)).as("runs %d and %d", i - 1, i)
                    .isGreaterThanOrEqualTo(apart);
            assertThat(runs.get(i).token()).isGreaterThan(runs.get(i - 1).token());
        }
    }
}
