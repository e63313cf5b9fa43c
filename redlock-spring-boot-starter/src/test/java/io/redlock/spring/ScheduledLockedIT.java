package io.redlock.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.spring.app.Sections;
import io.redlock.spring.app.TickJob;
import io.redlock.spring.app.TickingApp;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code @Locked(lockAtLeastFor)} on a {@code @Scheduled} job in two applications: the job ticks every 50 ms in both
 * and takes 10 ms, but the lock stays taken 300 ms after each run starts, so runs are at least that far apart.
 */
@WithRedisNodes(3)
class ScheduledLockedIT {

    private static final Duration NODE_TIMEOUT = Duration.ofMillis(20);

    @Test
    void aJobThatReturnsAtOnceKeepsTheLockForLockAtLeastForAcrossTwoApplications(RedisNodes nodes) {
        Sections sections = new Sections();
        List<ConfigurableApplicationContext> apps = new ArrayList<>();
        try {
            for (String name : List.of("a", "b")) {
                apps.add(TickingApp.start(name, sections, "redlock.nodes=" + String.join(",", nodes.uris()),
                        "redlock.node-timeout=" + NODE_TIMEOUT.toMillis() + "ms"));
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> sections.byStart().size() >= 6);
        } finally {
            apps.forEach(ConfigurableApplicationContext::close);
        }
        List<Sections.Section> runs = sections.byStart();
        // lockAtLeastFor, less what a release may give up (two node timeouts: Lease.releaseAfter)
        Duration apart = Duration.ofMillis(TickJob.AT_LEAST_MILLIS).minus(NODE_TIMEOUT.multipliedBy(2));
        for (int i = 1; i < runs.size(); i++) {
            assertThat(Duration.ofNanos(runs.get(i).start() - runs.get(i - 1).start())).as("runs %d and %d", i - 1, i)
                    .isGreaterThanOrEqualTo(apart);
            assertThat(runs.get(i).token()).isGreaterThan(runs.get(i - 1).token());
        }
    }
}
