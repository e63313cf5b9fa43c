package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's "Keeping a lock while you work" examples, against real nodes. */
@WithRedisNodes(5)
class ReadmeLockExamplesIT {

    private final List<String> saved = new ArrayList<>();

    private String buildReport() {
        return "report";
    }

    @Test
    void theWithLockExampleRuns(RedisNodes nodes) {
        try (Redlock redlock = Redlock.builder().nodes(nodes.uriArray()).build()) {
            LockOptions options = LockOptions.builder()
                    .ttl(Duration.ofSeconds(30))
                    .maxWait(Duration.ofSeconds(5))
                    .maxHold(Duration.ofMinutes(10))
                    .build();
            String report = redlock.withLock("nightly-report", options, lease -> {
                String r = buildReport();
                saved.add(r + "@" + lease.fencingToken());
                return r;
            });
            assertThat(report).isEqualTo("report");
            assertThat(saved).singleElement().asString().startsWith("report@");
        }
    }

    @Test
    void theLockExampleRuns(RedisNodes nodes) throws Exception {
        try (Redlock redlock = Redlock.builder().nodes(nodes.uriArray()).build()) {
            RedlockLock lock = redlock.lock("orders:42");
            lock.lock();
            try {
                long token = lock.currentLease().orElseThrow().fencingToken();
                saved.add("shipped@" + token);
            } finally {
                lock.unlock();
            }
            if (lock.tryLock(Duration.ofSeconds(2), Duration.ofSeconds(10))) {
                try {
                    saved.add("fixed");
                } finally {
                    lock.unlock();
                }
            }
            assertThat(saved).hasSize(2);
            assertThat(ItSupport.absentEverywhere(nodes, "orders:42")).isTrue();
        }
    }
}
