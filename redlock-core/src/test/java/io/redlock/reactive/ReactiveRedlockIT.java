package io.redlock.reactive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.redlock.Lease;
import io.redlock.LeaseLostException;
import io.redlock.LockNotAcquiredException;
import io.redlock.LockOptions;
import io.redlock.LossReason;
import io.redlock.Redlock;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Reactor over a Redlock: lazy, empty-when-busy acquisitions, and a publisher run under a kept-alive lock. */
@WithRedisNodes(3)
class ReactiveRedlockIT {

    private static final Duration BLOCK = Duration.ofSeconds(20);
    private static final Duration NODE_TIMEOUT = Duration.ofMillis(500);
    private static final Duration TTL = Duration.ofSeconds(2);
    /**
     * Extended every 600 ms or so, each extension due 1.4 s before the validity ends: only a stall of about a second
     * makes one late, so a loss is the one a test provokes.
     */
    private static final LockOptions SHORT_TTL = LockOptions.builder().ttl(TTL).extendWhenRemaining(
            Duration.ofMillis(1_400)).maxWait(Duration.ofSeconds(5)).build();

    @Test
    void anAcquisitionIsLazyAndEmptyWhileAnotherHoldsTheLock(RedisNodes nodes) {
        try (Redlock redlock = redlock(nodes)) {
            ReactiveRedlock locks = ReactiveRedlock.of(redlock);
            Mono<Lease> first = locks.tryAcquire("report", Duration.ofSeconds(10));
            assertThat(nodes.servers()).as("nothing before subscription").allMatch(node -> node.get("report") == null);
            Lease lease = first.block(BLOCK);
            assertThat(lease).isNotNull();
            assertThat(locks.acquire("report", Duration.ofSeconds(10), Duration.ofMillis(200)).blockOptional(BLOCK))
                    .isEmpty();
            lease.release();
        }
    }

    @Test
    void aPublisherRunsUnderTheLockKeptAlivePastItsTtlAndIsReleasedWhenItCompletes(RedisNodes nodes) {
        try (Redlock redlock = redlock(nodes)) {
            List<Long> values = ReactiveRedlock.of(redlock).withLock("report", SHORT_TTL, lease ->
                    Flux.interval(Duration.ofMillis(100)).take(30) // 3 s, past the TTL: extended about 4 times
                            .map(tick -> {
                                assertThat(lease.isValid()).isTrue();
                                assertThat(nodes.servers().stream().filter(node -> lease.value().equals(
                                        node.get("report")))).as("nodes holding the lease").hasSizeGreaterThan(1);
                                return lease.fencingToken();
                            }))
                    .collectList().block(BLOCK);
            assertThat(values).hasSize(30);
            awaitAbsent(nodes, "report");
        }
    }

    @Test
    void anErrorIsPassedOnAndTheLockReleased(RedisNodes nodes) {
        try (Redlock redlock = redlock(nodes)) {
            Flux<String> failing = ReactiveRedlock.of(redlock).withLock("report", SHORT_TTL,
                    lease -> Flux.error(new IllegalStateException("broken report")));
            assertThatThrownBy(() -> failing.blockLast(BLOCK)).hasMessage("broken report");
            awaitAbsent(nodes, "report");
        }
    }

    @Test
    void aCancelReleasesTheLock(RedisNodes nodes) {
        try (Redlock redlock = redlock(nodes)) {
            List<Long> firstThree = ReactiveRedlock.of(redlock).withLock("report", SHORT_TTL,
                    lease -> Flux.interval(Duration.ofMillis(50))).take(3).collectList().block(BLOCK);
            assertThat(firstThree).hasSize(3);
            awaitAbsent(nodes, "report");
        }
    }

    @Test
    void notAcquiredWithinTheWaitIsATypedError(RedisNodes nodes) {
        try (Redlock redlock = redlock(nodes)) {
            Lease held = redlock.tryAcquire("report", Duration.ofSeconds(10)).orElseThrow();
            Flux<String> blocked = ReactiveRedlock.of(redlock).withLock("report",
                    SHORT_TTL.toBuilder().maxWait(Duration.ofMillis(300)).build(), lease -> Flux.just("never"));
            assertThatThrownBy(() -> blocked.blockLast(BLOCK)).isInstanceOf(LockNotAcquiredException.class);
            held.release();
        }
    }

    @Test
    void aLeaseLostWhileThePublisherRunsEndsItWithLeaseLostException(RedisNodes nodes) {
        try (Redlock redlock = redlock(nodes)) {
            Flux<Long> work = ReactiveRedlock.of(redlock).withLock("report", SHORT_TTL, lease -> {
                nodes.servers().forEach(node -> node.redis(r -> r.del("report"))); // someone took it from us
                return Flux.interval(Duration.ofMillis(50));
            });
            assertThatThrownBy(() -> work.blockLast(BLOCK)).isInstanceOfSatisfying(LeaseLostException.class,
                    lost -> assertThat(lost.reason()).isEqualTo(LossReason.EXTENSION_REFUSED));
        }
    }

    private static Redlock redlock(RedisNodes nodes) {
        return Redlock.builder().nodes(nodes.uris()).nodeTimeout(NODE_TIMEOUT).build();
    }

    /** The lock key goes from every node (the release's last deletes land just after it returns). */
    private static void awaitAbsent(RedisNodes nodes, String key) {
        await().atMost(Duration.ofSeconds(5)).until(() -> nodes.servers().stream()
                .filter(RedisServer::isRunning).allMatch(node -> node.get(key) == null));
    }
}
