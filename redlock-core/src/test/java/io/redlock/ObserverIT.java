package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * RedlockObserver sees every acquisition (its start and its end), hold, extension and node failure; activeLeases counts
 * kept-alive leases.
 */
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
        // a result is BUSY only where no node timed out: a slow node would make it ERROR
        try (Redlock redlock = Observed.build(EveryNodeAnswers.redlockOn(nodes), observer);
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
        try (Redlock redlock = Observed.build(EveryNodeAnswers.redlockOn(nodes), observer);
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
    void everyAddedObserverHearsInTurnAndAnOverriddenLeaseLostWatchesUnwatchedLeases(RedisNodes nodes) {
        List<String> configured = new CopyOnWriteArrayList<>();
        List<LossReason> lost = new CopyOnWriteArrayList<>();
        try (Redlock redlock = Observed.build(redlockOn(nodes), new RedlockObserver() {
            @Override
            public void acquisition(String resource, AcquireResult result, Duration took) {
                configured.add(resource + " " + result);
            }
        })) {
            redlock.addObserver(observer);
            redlock.addObserver(RedlockObserver.lossesTo((lease, reason) -> lost.add(reason)));
            redlock.tryAcquire("added", Duration.ofSeconds(5)).orElseThrow().release();
            assertThat(configured).containsExactly("added ACQUIRED");
            assertThat(seen).contains("acquire added ACQUIRED");
            redlock.tryAcquire("expiring", Duration.ofMillis(500)).orElseThrow();
            await().atMost(Duration.ofSeconds(10)).until(() -> lost.contains(LossReason.EXPIRED));
        }
    }

    @Test
    void everyAcquisitionTellsTheKindOfLockItWasFor(RedisNodes nodes) {
        List<String> kinds = new CopyOnWriteArrayList<>();
        Duration ttl = Duration.ofSeconds(5);
        try (Redlock redlock = Observed.build(redlockOn(nodes), new RedlockObserver() {
            @Override
            public void acquisition(String resource, LockTarget.Kind kind, AcquireResult result, Duration took) {
                kinds.add(kind.tag() + " " + resource + " " + result);
            }
        })) {
            redlock.tryAcquire("kind:lock", ttl).orElseThrow().release();
            redlock.tryAcquireAll(List.of("kind:a", "kind:b"), ttl).orElseThrow().release();
            RedlockReadWriteLock rw = redlock.readWriteLock("kind:rw");
            rw.tryAcquireRead(ttl).orElseThrow().release();
            rw.tryAcquireWrite(ttl).orElseThrow().release();
            redlock.withLock(LockTarget.read("kind:rw"), LockOptions.builder().ttl(ttl).build(), lease -> null);
            assertThat(kinds).containsExactly("lock kind:lock ACQUIRED", "several [kind:a, kind:b] ACQUIRED",
                    "read kind:rw ACQUIRED", "write kind:rw ACQUIRED", "read kind:rw ACQUIRED");
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
        try (Redlock redlock = Observed.build(redlockOn(nodes), broken)) {
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

    @Test
    void anAcquisitionScopeStartsOnTheCallersThreadAndEndsOnceWithTheResult(RedisNodes nodes) {
        List<String> scopes = new CopyOnWriteArrayList<>();
        RedlockObserver scoping = new RedlockObserver() {
            @Override
            public Acquisition acquisitionStarted(String resource) {
                scopes.add("start " + resource + " on " + Thread.currentThread().getName());
                return (result, failure) -> scopes.add("end " + resource + " " + result + " "
                        + failure.map(f -> f.getClass().getSimpleName()).orElse("-"));
            }

            @Override
            public void acquisition(String resource, AcquireResult result, Duration took) {
                scopes.add("told " + resource);
            }
        };
        String caller = Thread.currentThread().getName();
        try (Redlock redlock = Observed.build(redlockOn(nodes), scoping);
                Redlock other = redlockOn(nodes).build()) {
            redlock.tryAcquire("scoped", Duration.ofSeconds(5)).orElseThrow().release();
            other.tryAcquire("taken", Duration.ofSeconds(5)).orElseThrow();
            assertThat(redlock.tryAcquire("taken", Duration.ofSeconds(5))).isEmpty();
            assertThat(scopes).containsExactly("start scoped on " + caller, "end scoped ACQUIRED -", "told scoped",
                    "start taken on " + caller, "end taken BUSY -", "told taken");
            scopes.clear();
            CompletableFuture<Optional<Lease>> waiting = redlock.acquireAsync("taken", Duration.ofSeconds(5),
                    Duration.ofSeconds(30)).toCompletableFuture();
            redlock.close(); // the waiting call fails
            await().atMost(Duration.ofSeconds(5)).until(waiting::isDone);
            assertThat(scopes).containsExactly("start taken on " + caller,
                    "end taken ERROR RedlockClosedException", "told taken");
        }
    }

    @Test
    void aHoldScopeEndsOnceReleasedOrLostAndBareLeasesHaveNone(RedisNodes nodes) throws InterruptedException {
        List<String> holds = new CopyOnWriteArrayList<>();
        RedlockObserver scoping = new RedlockObserver() {
            @Override
            public Hold holdStarted(Lease lease) {
                holds.add("hold " + lease.resource());
                return lost -> holds.add("end " + lease.resource() + " " + lost.map(Enum::name).orElse("released"));
            }
        };
        try (Redlock redlock = Observed.build(redlockOn(nodes), scoping)) {
            redlock.tryAcquire("bare", Duration.ofSeconds(5)).orElseThrow().release();
            redlock.withLock("worked", LockOptions.builder().ttl(Duration.ofSeconds(5)).build(), lease -> null);
            assertThat(holds).containsExactly("hold worked", "end worked released");
            holds.clear();

            // taken by a thread of its own (that ends): the loss interrupts the holder. Extended a second in and every
            // second after, long before each validity ends: the loss is the refusal provoked here, not a late extension
            RedlockLock lock = redlock.lock("refused", LockOptions.builder().ttl(Duration.ofSeconds(5))
                    .extendWhenRemaining(Duration.ofSeconds(4)).build());
            Thread holder = new Thread(lock::lock);
            holder.start();
            holder.join();
            nodes.forEach(node -> node.redis(r -> r.del("refused")));
            await().atMost(Duration.ofSeconds(10)).until(() -> holds.contains("end refused EXTENSION_REFUSED"));
            assertThat(holds).containsExactly("hold refused", "end refused EXTENSION_REFUSED");
            holds.clear();

            redlock.lock("open").lock();
            redlock.close();
            assertThat(holds).containsExactly("hold open", "end open CLOSED");
        }
    }

    @Test
    void anObserverFailingToStartOrEndAScopeDoesNotBreakTheLock(RedisNodes nodes) {
        RedlockObserver broken = new RedlockObserver() {
            @Override
            public Acquisition acquisitionStarted(String resource) {
                throw new IllegalStateException("tracing bug");
            }

            @Override
            public Hold holdStarted(Lease lease) {
                return lost -> {
                    throw new IllegalStateException("tracing bug");
                };
            }
        };
        try (Redlock redlock = Observed.build(redlockOn(nodes), broken)) {
            boolean valid = redlock.withLock("still-works", LockOptions.builder().ttl(Duration.ofSeconds(5)).build(),
                    lease -> lease.isValid());
            assertThat(valid).isTrue();
            assertThat(redlock.activeLeases()).isZero();
        }
    }
}
