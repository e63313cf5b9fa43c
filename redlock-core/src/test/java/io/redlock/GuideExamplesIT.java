package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of docs/GUIDE.md, "Keeping a lock while you work" and "The Lock adapter", against real nodes. */
@WithRedisNodes(5)
class GuideExamplesIT {

    private final List<String> saved = new ArrayList<>();

    /**
     * docs/GUIDE.md's {@code NightlyReport}, line for line, except: the nodes are the testkit's, and what it prints is
     * collected in {@code printed}.
     */
    static final class NightlyReport {
        final List<String> printed = new ArrayList<>();

        void main(String... nodes) {
            LockOptions options = LockOptions.builder()
                    .ttl(Duration.ofSeconds(30))          // each acquisition and extension
                    .maxWait(Duration.ofSeconds(5))       // how long to wait for the lock
                    .maxHold(Duration.ofMinutes(10))      // stop extending after this (SPEC R8)
                    .build();
            try (Redlock redlock = Redlock.builder()
                    .nodes(nodes)
                    .build()) {
                String report = redlock.withLock("nightly-report", options, lease -> {
                    String built = buildReport();     // may take longer than the TTL: the watchdog extends the lease
                    save(built, lease.fencingToken());  // the token lets the storage refuse a stale holder's write
                    return built;
                });
                printed.add("built " + report);
            } catch (LockNotAcquiredException busy) {
                printed.add("someone else is building the report");
            } catch (LeaseLostException lost) {
                // the lease was lost while the work ran: the work was not protected from then on
                printed.add("lost the lock while building the report: " + lost.reason().description());
            }
        }

        static String buildReport() throws InterruptedException {
            Thread.sleep(100);                            // stands for the real work; an interrupt means the lease is lost
            return "report";
        }

        void save(String report, long fencingToken) {
            printed.add("saving " + report + " with token " + fencingToken);
        }
    }

    @Test
    void theWithLockExampleRuns(RedisNodes nodes) {
        NightlyReport example = new NightlyReport();
        example.main(nodes.uriArray());
        assertThat(example.printed).hasSize(2);
        assertThat(example.printed.get(0)).matches("saving report with token \\d+");
        assertThat(example.printed.get(1)).isEqualTo("built report");
        assertThat(ItSupport.absentEverywhere(nodes, "nightly-report")).isTrue();
    }

    @Test
    void theWithLockExampleSaysSoWhenTheLockIsBusy(RedisNodes nodes) {
        // the other client is the test's, not the example's: one try, so the test's node timeout
        try (Redlock other = ItSupport.redlockOn(nodes).build()) {
            other.tryAcquire("nightly-report", Duration.ofSeconds(30)).orElseThrow();
            NightlyReport example = new NightlyReport();
            example.main(nodes.uriArray());
            assertThat(example.printed).containsExactly("someone else is building the report");
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
