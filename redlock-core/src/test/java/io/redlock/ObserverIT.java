package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** RedlockObserver sees every acquisition, extension and node failure; activeLeases counts kept-alive leases. */
@WithRedisNodes(5)
class ObserverIT {

    private final List<String> seen = new CopyOnWriteArrayList<>();

    private final RedlockObserver observer = new RedlockObserver() {
        @Override
        public void acquisition(String resource, RedlockObserver.AcquireResult result, Duration took) {
            assertThat(took.isNegative()).isFalse();
            seen.add("acquire " + resource + " " + result);
        }

        @Override
        public void extension(String resource, boolean extended, Duration took) {
            seen.add("extend " + resource + " " + extended);
        }

        @Override
        public void nodeFailed(NodeFailure failure) {
            seen.add("node " + failure.node() + " " + failure.kind());
        }
    };

    @Test
    void seesAcquisitionsExtensionsAndNodeFailures(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).observer(observer).build();
                Redlock other = redlockOn(nodes).build()) {
            Lease lease = redlock.tryAcquire("watched", Duration.ofSeconds(5)).orElseThrow();
            assertThat(lease.extend(Duration.ofSeconds(5))).isTrue();
            other.tryAcquire("busy", Duration.ofSeconds(5)).orElseThrow();
            assertThat(redlock.tryAcquire("busy", Duration.ofSeconds(5))).isEmpty();
            assertThatThrownBy(() -> redlock.tryAcquire(" ", Duration.ofSeconds(5)))
                    .isInstanceOf(RedlockConfigException.class);
            nodes.node(4).kill();
            redlock.tryAcquire("one-down", Duration.ofSeconds(5)).orElseThrow();
            assertThat(seen).contains("acquire watched ACQUIRED", "extend watched true", "acquire busy BUSY",
                    "acquire one-down ACQUIRED");
            // the other four may decide before the killed node's failure comes in (refused at once, or timed out
            // later); it is reported all the same
            String down = "node " + nodes.node(4).address() + " ";
            await().atMost(Duration.ofSeconds(10)).until(() -> seen.stream().anyMatch(e -> e.startsWith(down)));
        }
    }

    @Test
    void aMajorityOfNodesDownIsAnErrorWhileAHeldLockIsBusy(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).observer(observer).build();
                Redlock other = redlockOn(nodes).build()) {
            other.tryAcquire("held", Duration.ofSeconds(5)).orElseThrow();
            assertThat(redlock.acquire("held", Duration.ofSeconds(5), Duration.ofMillis(300))).isEmpty();
            nodes.node(0).kill();
            nodes.node(1).kill();
            nodes.node(2).kill();
            assertThat(redlock.acquire("down", Duration.ofSeconds(5), Duration.ofMillis(300))).isEmpty();
            assertThat(seen).contains("acquire held BUSY", "acquire down ERROR").doesNotContain("acquire down BUSY",
                    "acquire held ERROR");
        }
    }

    @Test
    void anObserverAndALeaseListenerAddedAfterBuildHearTooNextToTheConfiguredOnes(RedisNodes nodes) {
        List<String> configured = new CopyOnWriteArrayList<>();
        List<LossReason> lost = new CopyOnWriteArrayList<>();
        try (Redlock redlock = redlockOn(nodes).observer(new RedlockObserver() {
            @Override
            public void acquisition(String resource, AcquireResult result, Duration took) {
                configured.add(resource + " " + result);
            }
        }).build()) {
            redlock.addObserver(observer);
            redlock.addLeaseListener((lease, reason) -> lost.add(reason));
            redlock.tryAcquire("added", Duration.ofSeconds(5)).orElseThrow().release();
            assertThat(configured).containsExactly("added ACQUIRED");
            assertThat(seen).contains("acquire added ACQUIRED");
            redlock.tryAcquire("expiring", Duration.ofMillis(500)).orElseThrow();
            await().atMost(Duration.ofSeconds(10)).until(() -> lost.contains(LossReason.EXPIRED));
        }
    }

    @Test
    void aFailingObserverDoesNotBreakTheLock(RedisNodes nodes) {
        RedlockObserver broken = new RedlockObserver() {
            @Override
            public void acquisition(String resource, RedlockObserver.AcquireResult result, Duration took) {
                throw new IllegalStateException("metrics bug");
            }
        };
        try (Redlock redlock = redlockOn(nodes).observer(broken).build()) {
            assertThat(redlock.tryAcquire("still-works", Duration.ofSeconds(5))).isPresent();
        }
    }

    @Test
    void activeLeasesCountsLeasesBeingKeptAlive(RedisNodes nodes) throws Exception {
        try (Redlock redlock = redlockOn(nodes).build()) {
            assertThat(redlock.activeLeases()).isZero();
            int during = redlock.withLock("counted", LockOptions.builder().ttl(Duration.ofSeconds(5)).build(),
                    lease -> redlock.activeLeases());
            assertThat(during).isEqualTo(1);
            assertThat(redlock.activeLeases()).isZero();
            RedlockLock lock = redlock.lock("counted-lock");
            lock.lock();
            assertThat(redlock.activeLeases()).isEqualTo(1);
            lock.unlock();
            assertThat(redlock.activeLeases()).isZero();
        }
    }
}
