package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.KillArgs;
import io.lettuce.core.SetArgs;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.TcpProxy;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SPEC R7: a release deletes on every node, whatever the client believes it holds there. A command in flight when its
 * connection breaks is sent again after the reconnect; the copy is refused because the first one set our value, and a
 * release that skipped the nodes that answered "refused" left our key there for its whole TTL.
 *
 * <p>Property: after {@code release()} (and after an attempt that did not acquire) no node keeps a key with the
 * lease's value, however the connections broke while the acquisitions were in flight. The TTL (60 s) is far longer
 * than the wait for the keys to go, so a key that went by expiring cannot pass for a deleted one.
 */
@WithRedisNodes(5)
class ReleaseOnEveryNodeIT {

    private static final Duration TTL = Duration.ofSeconds(60);
    /** How long the deletes may take to land: they are sent at once, and repeated while a node does not answer. */
    private static final Duration GONE_WITHIN = Duration.ofSeconds(20);
    private static final int WAVES = 3;
    private static final int PER_WAVE = 200;

    /**
     * What a copy sent again does, step by step: the acquire reaches node 4 late (a proxy delays it), by then our
     * value is there already (the test writes it, standing in for the first copy), and the node refuses. The release
     * comes after that refusal is in (a status read on the same connection answers behind it).
     */
    @ParameterizedTest(name = "fencing {0}")
    @ValueSource(booleans = {false, true})
    void aNodeThatRefusedTheAcquireBecauseOurValueWasThereIsReleasedToo(boolean fencing, RedisNodes nodes) {
        RedisServer behind = nodes.node(4);
        try (TcpProxy proxy = TcpProxy.start(behind.host(), behind.port())) {
            List<String> uris = new ArrayList<>(nodes.uris().subList(0, 4));
            uris.add(proxy.uri());
            String resource = "refused-" + fencing;
            try (Redlock redlock = Redlock.builder().nodes(uris.toArray(String[]::new)).fencing(fencing)
                    .nodeTimeout(Duration.ofSeconds(5)).build()) {
                redlock.tryAcquire("warm-up-" + fencing, TTL).orElseThrow().release();
                proxy.delay(Duration.ofSeconds(1));

                Lease lease = redlock.tryAcquire(resource, TTL).orElseThrow(); // the 4 other nodes granted it
                behind.redis(r -> r.set(resource, lease.value(), SetArgs.Builder.px(TTL))); // before the delayed acquire reaches node 4
                redlock.status(resource); // answered behind the acquire: node 4's refusal is in
                assertThat(behind.get(resource)).isEqualTo(lease.value());
                lease.release();

                assertThat(goneEverywhere(nodes, Map.of(resource, lease.value())))
                        .as("keys left after the release").isEmpty();
            }
        }
    }

    /**
     * The same, as it happens: two nodes' connections killed every few milliseconds while waves of acquisitions are in
     * flight; a command whose write failed is sent again after the reconnect (Lettuce's retry of unwritten commands),
     * though it may have reached the node.
     */
    @ParameterizedTest(name = "fencing {0}")
    @ValueSource(booleans = {false, true})
    void connectionsKilledWhileAcquisitionsAreInFlightLeaveNoKeyBehind(boolean fencing, RedisNodes nodes) {
        List<RedisServer> killed = nodes.servers().subList(0, 2);
        AtomicBoolean killing = new AtomicBoolean(true);
        CompletableFuture<Void> killer = CompletableFuture.runAsync(() -> {
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // bounded even if the test stalls
            while (killing.get() && System.nanoTime() - until < 0) {
                killed.forEach(node -> node.redis(r -> r.clientKill(KillArgs.Builder.typeNormal())));
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            }
        });
        Map<String, String> held = new ConcurrentHashMap<>();
        try (Redlock redlock = Redlock.builder().nodes(nodes.uriArray()).fencing(fencing)
                .nodeTimeout(Duration.ofSeconds(1)).build()) {
            for (int wave = 0; wave < WAVES; wave++) {
                String prefix = "killed-" + fencing + "-" + wave + "-";
                List<CompletableFuture<Void>> pairs = IntStream.range(0, PER_WAVE).mapToObj(i -> prefix + i)
                        .map(resource -> redlock.tryAcquireAsync(resource, TTL).toCompletableFuture()
                                .thenCompose(lease -> lease.map(l -> {
                                    held.put(resource, l.value());
                                    return l.releaseAsync().toCompletableFuture();
                                }).orElse(CompletableFuture.completedFuture(null))))
                        .collect(Collectors.toList());
                pairs.forEach(pair -> pair.exceptionally(failure -> null).join());
            }
            killing.set(false);
            killer.join();
            // the deletes that could not land yet are repeated until they do; close() would stop them after 2 s
            assertThat(held).as("leases granted with two nodes' connections killed again and again").isNotEmpty();
            assertThat(goneEverywhere(nodes, held)).as("keys left after the release").isEmpty();
        } finally {
            killing.set(false);
            killer.join();
        }
    }

    /** Waits up to {@link #GONE_WITHIN} for no node to hold any of the keys with its value; returns what is left. */
    private static List<String> goneEverywhere(RedisNodes nodes, Map<String, String> values) {
        long deadline = System.nanoTime() + GONE_WITHIN.toNanos();
        while (true) {
            List<String> left = new ArrayList<>();
            for (RedisServer node : nodes.servers()) {
                values.forEach((key, value) -> {
                    if (value.equals(node.get(key))) {
                        left.add(node.address() + " " + key + " (PTTL " + node.pttl(key) + " ms)");
                    }
                });
            }
            if (left.isEmpty() || System.nanoTime() - deadline >= 0) {
                return left;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }
}
