package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Semaphores on five real nodes: never more holders than permits, one try finds a free permit wherever it is, permits
 * that expire, extend and release as leases, unique growing tokens, waiting for a permit, many threads of two
 * clients, and one resource name kept to one kind of lock with one number of permits (typed errors, nothing
 * written).
 */
@WithRedisNodes(5)
class SemaphoreIT {

    private static final Duration TTL = Duration.ofSeconds(10);

    @Test
    void atMostPermitsLeasesHoldAtOnceAndAReleaseLetsTheNextIn(RedisNodes nodes) {
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            RedlockSemaphore sa = a.semaphore("sem:three", 3);
            RedlockSemaphore sb = b.semaphore("sem:three", 3);
            assertThat(sa.availablePermits()).isEqualTo(3);
            List<Lease> held = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                held.add((i % 2 == 0 ? sa : sb).tryAcquire(TTL).orElseThrow());
                assertThat(sb.availablePermits()).isEqualTo(2 - i);
            }
            assertThat(sa.tryAcquire(TTL)).as("a fourth").isEmpty();
            assertThat(sb.tryAcquire(TTL)).as("a fourth").isEmpty();
            Set<Long> tokens = new HashSet<>();
            held.forEach(lease -> tokens.add(lease.fencingToken()));
            assertThat(tokens).as("unique tokens").hasSize(3);
            ItSupport.awaitOnEveryNode(nodes, "sem:three"); // a majority granted: the last node's may be on its way
            for (RedisServer node : nodes) {
                assertThat(node.get("sem:three")).as("the semaphore's mark").isEqualTo("redlock:permits:3");
                Boolean set = node.redis(r -> r.setnx("sem:three", "another-client"));
                assertThat(set).as("a raw SET NX of another Redlock client").isFalse();
            }
            long highest = tokens.stream().mapToLong(Long::longValue).max().orElseThrow();
            held.remove(1).release();
            assertThat(sa.availablePermits()).isEqualTo(1);
            Lease next = sb.tryAcquire(TTL).orElseThrow();
            assertThat(next.fencingToken()).as("above every earlier permit's").isGreaterThan(highest);
            held.add(next);
            assertThat(sa.tryAcquire(TTL)).isEmpty();
            held.forEach(Lease::release);
            assertThat(sa.availablePermits()).isEqualTo(3);
            assertThat(ItSupport.absentEverywhere(nodes, "sem:three")).as("the last one deletes the mark").isTrue();
            assertThat(ItSupport.absentEverywhere(nodes, "sem:three:permits")).isTrue();
        }
    }

    @Test
    void oneTryFindsTheLastFreePermitWhicheverSlotItIs(RedisNodes nodes) {
        int permits = 8;
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockSemaphore semaphore = redlock.semaphore("sem:sweep", permits);
            List<Lease> held = new ArrayList<>();
            for (int i = 0; i < permits; i++) {
                held.add(semaphore.tryAcquire(TTL).orElseThrow(() -> new AssertionError("a permit was free")));
            }
            for (int round = 0; round < permits; round++) {
                held.remove(0).release(); // frees the oldest, whose slot the next try does not know
                assertThat(semaphore.availablePermits()).isEqualTo(1);
                held.add(semaphore.tryAcquire(TTL).orElseThrow(() -> new AssertionError("one permit was free")));
                assertThat(semaphore.tryAcquire(TTL)).isEmpty();
            }
            held.forEach(Lease::release);
        }
    }

    @Test
    void aPermitWhoseHolderDiesExpiresAndAnExtendedOneDoesNot(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            RedlockSemaphore semaphore = redlock.semaphore("sem:expiry", 2);
            // short enough to expire within the test, long enough to outlive the next two calls on a loaded machine
            Duration shortTtl = Duration.ofSeconds(2);
            Lease dying = semaphore.tryAcquire(shortTtl).orElseThrow();
            Lease kept = semaphore.tryAcquire(shortTtl).orElseThrow();
            assertThat(semaphore.tryAcquire(TTL)).isEmpty();
            long keptUnextendedUntil = kept.validUntil();
            assertThat(kept.extend(TTL)).isTrue();
            // past the moment the kept permit would have lapsed unextended
            await().atMost(Duration.ofSeconds(10)).until(() -> !dying.isValid() && semaphore.availablePermits() == 1
                    && System.nanoTime() - keptUnextendedUntil > 0);
            assertThat(dying.extend(TTL)).as("a lapsed permit is never brought back").isFalse();
            Lease next = semaphore.tryAcquire(TTL).orElseThrow();
            assertThat(semaphore.tryAcquire(TTL)).as("the extended one still holds").isEmpty();
            next.release();
            kept.release();
            assertThat(ItSupport.absentEverywhere(nodes, "sem:expiry")).isTrue();
        }
    }

    @Test
    void aWaiterGetsAPermitWhenOneIsReleased(RedisNodes nodes) throws Exception {
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            Lease only = a.semaphore("sem:wait", 1).tryAcquire(TTL).orElseThrow();
            CompletableFuture<Optional<Lease>> waiting = b.semaphore("sem:wait", 1)
                    .acquireAsync(TTL, Duration.ofSeconds(20)).toCompletableFuture();
            assertThat(waiting).isNotDone();
            only.release();
            Lease next = waiting.get(20, TimeUnit.SECONDS).orElseThrow();
            assertThat(next.fencingToken()).isGreaterThan(only.fencingToken());
            next.release();
        }
    }

    @Test
    void aWaiterWakesWhenAnyOnePermitIsReleasedNotOnlyTheLast(RedisNodes nodes) throws Exception {
        RetryPolicy slowPolling = RetryPolicy.uniform(Duration.ofSeconds(8), Duration.ofSeconds(9));
        try (Redlock a = redlockOn(nodes).build();
                Redlock b = redlockOn(nodes).retry(slowPolling).build()) {
            Lease first = a.semaphore("sem:wake", 2).tryAcquire(TTL).orElseThrow();
            Lease second = a.semaphore("sem:wake", 2).tryAcquire(TTL).orElseThrow();
            CompletableFuture<Optional<Lease>> waiting = b.semaphore("sem:wake", 2)
                    .acquireAsync(TTL, Duration.ofSeconds(30)).toCompletableFuture();
            await().atMost(Duration.ofSeconds(5)).until(() -> nodes.servers().stream().allMatch(node -> {
                java.util.Map<String, Long> listening = node.redis(r -> r.pubsubNumsub("sem:wake:released"));
                return listening.getOrDefault("sem:wake:released", 0L) > 0; // refused once, it listens
            }));
            assertThat(waiting).isNotDone();
            first.release(); // one permit of two: the other holder stays
            // polling alone would try again 8 s or more after the refusal: only the release's message brings it sooner
            Lease next = waiting.get(5, TimeUnit.SECONDS).orElseThrow();
            next.release();
            second.release();
        }
    }

    @Test
    void manyThreadsOfTwoClientsNeverHoldMoreThanThePermits(RedisNodes nodes) throws Exception {
        int permits = 2;
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger entered = new AtomicInteger();
        LockOptions options = LockOptions.builder().ttl(TTL).maxWait(Duration.ofSeconds(30)).build();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try (Redlock a = redlockOn(nodes).build(); Redlock b = redlockOn(nodes).build()) {
            List<CompletableFuture<Void>> workers = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                Redlock client = t % 2 == 0 ? a : b;
                workers.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < 10; i++) {
                        client.withLock(LockTarget.permit("sem:threads", permits), options, lease -> {
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            entered.incrementAndGet();
                            Thread.onSpinWait();
                            inside.decrementAndGet();
                            return null;
                        });
                    }
                }, pool));
            }
            CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertThat(entered.get()).isEqualTo(60);
        assertThat(most.get()).as("holders at once").isBetween(1, permits);
        assertThat(ItSupport.absentEverywhere(nodes, "sem:threads")).isTrue();
    }

    @Test
    void oneResourceNameIsOneKindOfLockWithOneNumberOfPermits(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build(); Redlock other = redlockOn(nodes).build()) {
            Lease lock = other.tryAcquire("mixed:lock", TTL).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "mixed:lock"); // node 0's write may come after the majority's
            Set<String> before = keysOf(nodes.node(0));
            assertThatThrownBy(() -> redlock.semaphore("mixed:lock", 2).tryAcquire(TTL))
                    .isInstanceOf(LockKindMismatchException.class)
                    .hasMessageContaining("'mixed:lock' is held as a lock, asked for as a semaphore of 2 permits");
            assertThat(keysOf(nodes.node(0))).as("nothing written").isEqualTo(before);
            lock.release();
            assertThat(ItSupport.absentEverywhere(nodes, "mixed:lock")).isTrue();

            Lease permit = redlock.semaphore("mixed:sem", 2).tryAcquire(TTL).orElseThrow();
            ItSupport.awaitOnEveryNode(nodes, "mixed:sem");
            before = keysOf(nodes.node(0));
            assertThatThrownBy(() -> other.tryAcquire("mixed:sem", TTL))
                    .isInstanceOf(LockKindMismatchException.class)
                    .hasMessageContaining("held as a semaphore of 2 permits, asked for as a lock");
            assertThatThrownBy(() -> other.semaphore("mixed:sem", 3).tryAcquire(TTL))
                    .isInstanceOf(LockKindMismatchException.class)
                    .hasMessageContaining("held as a semaphore of 2 permits, asked for as a semaphore of 3 permits");
            assertThatThrownBy(() -> other.readWriteLock("mixed:sem").tryAcquireRead(TTL))
                    .isInstanceOf(LockKindMismatchException.class).hasMessageContaining("asked for as a read lock");
            assertThatThrownBy(() -> other.tryAcquireAll(List.of("mixed:other", "mixed:sem"), TTL))
                    .isInstanceOf(LockKindMismatchException.class);
            assertThatThrownBy(() -> other.acquire("mixed:sem", TTL, Duration.ofSeconds(5)))
                    .as("a waiter is told at once").isInstanceOf(LockKindMismatchException.class);
            assertThat(keysOf(nodes.node(0))).as("nothing written").isEqualTo(before);
            permit.release();

            Lease reader = other.readWriteLock("mixed:read").tryAcquireRead(TTL).orElseThrow();
            assertThatThrownBy(() -> redlock.semaphore("mixed:read", 2).tryAcquire(TTL))
                    .isInstanceOf(LockKindMismatchException.class).hasMessageContaining("held as a read lock");
            reader.release();
            for (String resource : List.of("mixed:lock", "mixed:sem", "mixed:read", "mixed:other")) {
                assertThat(ItSupport.absentEverywhere(nodes, resource)).as(resource).isTrue();
            }
        }
    }

    @Test
    void badPermitsAreTypedErrorsAndWriteNothing(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            for (int bad : new int[] {0, -1, RedlockConfig.MAX_PERMITS + 1}) {
                assertThatThrownBy(() -> redlock.semaphore("sem:bad", bad)).isInstanceOf(RedlockConfigException.class)
                        .hasMessageContaining("permits");
                assertThatThrownBy(() -> redlock.withLock(LockTarget.permit("sem:bad", bad), LockOptions.defaults(),
                        lease -> null)).isInstanceOf(RedlockConfigException.class);
            }
            assertThatThrownBy(() -> redlock.semaphore(" ", 2)).isInstanceOf(RedlockConfigException.class);
            assertThatThrownBy(() -> redlock.semaphore("sem:bad", 2).tryAcquire(Duration.ZERO))
                    .isInstanceOf(RedlockConfigException.class);
            for (RedisServer node : nodes) {
                Long keys = node.redis(r -> r.dbsize());
                assertThat(keys).isZero();
            }
        }
    }

    @Test
    void withoutFencingPermitsStillCountAndTouchNoCounter(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).fencing(false).build()) {
            RedlockSemaphore semaphore = redlock.semaphore("sem:plain", 2);
            Lease first = semaphore.tryAcquire(TTL).orElseThrow();
            Lease second = semaphore.tryAcquire(TTL).orElseThrow();
            assertThat(semaphore.tryAcquire(TTL)).isEmpty();
            assertThat(nodes.node(0).get("sem:plain:fence")).isNull();
            first.release();
            second.release();
            assertThat(ItSupport.absentEverywhere(nodes, "sem:plain")).isTrue();
        }
    }

    private static Set<String> keysOf(RedisServer node) {
        List<String> keys = node.redis(r -> r.keys("*"));
        return new HashSet<>(keys);
    }
}
