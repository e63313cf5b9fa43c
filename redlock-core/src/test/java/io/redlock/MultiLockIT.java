package io.redlock;

import static io.redlock.ItSupport.countingFromOne;
import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Locks of several resources at once ({@link Redlock#acquireAll}) on five real nodes: all or none on each node, one
 * token above every earlier token of each resource, conflicts with plain locks (ours and a raw {@code SET NX}) both
 * ways, extension and release of every key together, no deadlock whatever order callers list resources in, and bad
 * input refused before anything is written.
 */
@WithRedisNodes(5)
class MultiLockIT {

    private static final Duration TTL = Duration.ofSeconds(10);

    @Test
    void everyNodeHoldsEveryResourceWithOneTokenUntilTheRelease(RedisNodes nodes) {
        try (Redlock redlock = countingFromOne(redlockOn(nodes)).build()) {
            Lease plain = redlock.tryAcquire("multi:b", TTL).orElseThrow();
            long before = plain.fencingToken();
            plain.release();
            MultiLease lease = redlock.tryAcquireAll(List.of("multi:a", "multi:b", "multi:c"), TTL).orElseThrow();
            assertThat(lease.resources()).containsExactly("multi:a", "multi:b", "multi:c");
            long token = lease.fencingToken("multi:a");
            assertThat(token).as("above the plain lock's token on b").isGreaterThan(before);
            assertThat(lease.fencingToken("multi:b")).isEqualTo(token);
            assertThatThrownBy(() -> lease.fencingToken("multi:d")).isInstanceOf(IllegalArgumentException.class);
            for (RedisServer node : nodes) {
                for (String resource : lease.resources()) {
                    assertThat(node.get(resource)).isEqualTo(lease.value());
                    assertThat(node.get(resource + ":fence")).isEqualTo(Long.toString(token));
                }
            }
            assertThat(lease.isValid()).isTrue();
            lease.release();
            assertThat(lease.isValid()).isFalse();
            for (String resource : lease.resources()) {
                assertThat(ItSupport.absentEverywhere(nodes, resource)).as(resource).isTrue();
            }
            Lease after = redlock.tryAcquire("multi:c", TTL).orElseThrow();
            assertThat(after.fencingToken()).as("above the token of several").isGreaterThan(token);
            after.release();
        }
    }

    @Test
    void aPlainLockOfAnyResourceAndALockOfSeveralExcludeEachOther(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build(); Redlock other = redlockOn(nodes).build()) {
            Lease held = other.tryAcquire("both:b", TTL).orElseThrow();
            assertThat(redlock.tryAcquireAll(List.of("both:a", "both:b"), TTL)).isEmpty();
            assertThat(ItSupport.absentEverywhere(nodes, "both:a")).as("none taken: all or none").isTrue();
            held.release();

            MultiLease lease = redlock.tryAcquireAll(List.of("both:a", "both:b"), TTL).orElseThrow();
            // a majority granted: the other nodes' writes may be on their way, and an attempt of the other client
            // landing there first would take those nodes (and free them when it gives up)
            ItSupport.awaitOnEveryNode(nodes, "both:a");
            ItSupport.awaitOnEveryNode(nodes, "both:b");
            assertThat(other.tryAcquire("both:a", TTL)).isEmpty();
            assertThat(other.tryAcquire("both:b", TTL)).isEmpty();
            assertThat(other.tryAcquireAll(List.of("both:b", "both:c"), TTL)).isEmpty();
            // another Redlock client knows the lock key only: SET NX fails on every node
            for (RedisServer node : nodes) {
                Boolean set = node.redis(r -> r.setnx("both:a", "another-client"));
                assertThat(set).isFalse();
            }
            lease.release();
            assertThat(other.tryAcquire("both:b", TTL)).isPresent();
        }
    }

    @Test
    void extensionCoversEveryResourceAndIsRefusedOnceOneKeyIsGone(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            MultiLease lease = redlock.tryAcquireAll(List.of("ext:a", "ext:b"), Duration.ofSeconds(2)).orElseThrow();
            assertThat(lease.extend(Duration.ofSeconds(30))).isTrue();
            assertThat(nodes.pttlOnAMajority("ext:a")).isGreaterThan(20_000L);
            assertThat(nodes.pttlOnAMajority("ext:b")).isGreaterThan(20_000L);
            nodes.forEach(node -> node.redis(r -> r.del("ext:b")));
            assertThat(lease.extend(Duration.ofSeconds(30))).as("all or nothing").isFalse();
            assertThat(nodes.pttlOnAMajority("ext:a")).as("not extended alone").isLessThan(31_000L);
            lease.release();
            assertThat(ItSupport.absentEverywhere(nodes, "ext:a")).isTrue();
        }
    }

    @Test
    void callersListingTheResourcesInOppositeOrdersBothMakeProgress(RedisNodes nodes) throws Exception {
        int rounds = 15;
        List<String> holders = new CopyOnWriteArrayList<>();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        try (Redlock first = redlockOn(nodes).build(); Redlock second = redlockOn(nodes).build()) {
            List<String> forward = List.of("order:x", "order:y", "order:z");
            List<String> backward = new ArrayList<>(forward);
            Collections.reverse(backward);
            List<CompletableFuture<Void>> callers = new ArrayList<>();
            for (var caller : List.of(List.of(first, forward), List.of(second, backward))) {
                Redlock redlock = (Redlock) caller.get(0);
                @SuppressWarnings("unchecked")
                List<String> resources = (List<String>) caller.get(1);
                callers.add(CompletableFuture.runAsync(() -> IntStream.range(0, rounds).forEach(i -> {
                    try (MultiLease lease = redlock.acquireAll(resources, TTL, Duration.ofSeconds(30)).orElseThrow()) {
                        if (inside.incrementAndGet() > 1) {
                            overlaps.incrementAndGet();
                        }
                        holders.add(resources.get(0));
                        inside.decrementAndGet();
                    }
                })));
            }
            CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get();
        }
        assertThat(overlaps).hasValue(0);
        assertThat(holders).hasSize(2 * rounds).contains("order:x", "order:z");
    }

    @Test
    void withoutFencingItIsThePlainAlgorithmOverEveryResource(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).fencing(false).build()) {
            MultiLease lease = redlock.tryAcquireAll(List.of("plain:a", "plain:b"), TTL).orElseThrow();
            assertThatThrownBy(() -> lease.fencingToken("plain:a")).isInstanceOf(RedlockException.class);
            for (RedisServer node : nodes) {
                assertThat(node.get("plain:a")).isEqualTo(lease.value());
                assertThat(node.get("plain:a:fence")).as("no counter is touched").isNull();
            }
            assertThat(redlock.tryAcquire("plain:b", TTL)).isEmpty();
            lease.release();
            assertThat(redlock.tryAcquire("plain:b", TTL)).isPresent();
        }
    }

    @Test
    void badResourceListsAreRefusedBeforeAnythingIsWritten(RedisNodes nodes) {
        try (Redlock redlock = redlockOn(nodes).build()) {
            assertThatThrownBy(() -> redlock.tryAcquireAll(List.of(), TTL))
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining("at least one");
            assertThatThrownBy(() -> redlock.tryAcquireAll(null, TTL))
                    .isInstanceOf(RedlockConfigException.class);
            assertThatThrownBy(() -> redlock.tryAcquireAll(List.of("dup", "other", "dup"), TTL))
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining("'dup'");
            assertThatThrownBy(() -> redlock.tryAcquireAll(List.of("fine", " "), TTL))
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining("blank");
            List<String> tooMany = IntStream.rangeClosed(0, RedlockConfig.MAX_RESOURCES_AT_ONCE)
                    .mapToObj(i -> "many:" + i).toList();
            assertThatThrownBy(() -> redlock.tryAcquireAll(tooMany, TTL))
                    .isInstanceOf(RedlockConfigException.class).hasMessageContaining("at most 64");
            List<String> most = tooMany.subList(0, RedlockConfig.MAX_RESOURCES_AT_ONCE);
            for (RedisServer node : nodes) {
                Long keys = node.redis(r -> r.dbsize());
                assertThat(keys).as("keys on %s", node).isZero();
            }
            redlock.tryAcquireAll(most, TTL).orElseThrow().release();
        }
    }
}
