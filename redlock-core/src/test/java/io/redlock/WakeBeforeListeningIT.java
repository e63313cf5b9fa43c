package io.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.TcpProxy;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A waiter listens for releases only once it has been refused, so a release can come before it listens: after the
 * nodes refused it and before its subscription to the release channel is in place. Such a release must not cost it
 * a retry delay. Its connections go through proxies that slow them down by a second each way, so the release surely
 * falls in between: between the nodes queueing it and its subscription reaching them lie two seconds, for the test to
 * see the queue and release the lock even on a loaded machine.
 */
@WithRedisNodes(3)
class WakeBeforeListeningIT {

    private static final Duration TTL = Duration.ofSeconds(30);
    private static final Duration LATENCY = Duration.ofSeconds(1);
    /** Polling alone tries again no sooner than 20 s after the refusal. */
    private static final RetryPolicy SLOW_POLLING = RetryPolicy.uniform(Duration.ofSeconds(20), Duration.ofSeconds(21));

    @Test
    void aReleaseBeforeTheRefusedWaiterListensStillBringsItIn(RedisNodes nodes) throws Exception {
        List<TcpProxy> proxies = new ArrayList<>();
        try {
            for (RedisServer node : nodes) {
                proxies.add(TcpProxy.start(node.host(), node.port()));
            }
            try (Redlock holder = ItSupport.redlockOn(nodes).build();
                    Redlock waiter = Redlock.builder().nodes(proxies.stream().map(TcpProxy::uri).toArray(String[]::new))
                            .nodeTimeout(LATENCY.multipliedBy(5)).retry(SLOW_POLLING).build()) {
                waiter.tryAcquire("early:warm-up", TTL).orElseThrow().release(); // its lock connections are open
                Lease held = holder.tryAcquire("early", TTL).orElseThrow();
                proxies.forEach(proxy -> proxy.delay(LATENCY));

                CompletableFuture<Optional<Lease>> waiting = waiter.acquireAsync("early", TTL, Duration.ofSeconds(60))
                        .toCompletableFuture();
                // every node refused it and queued it; the refusals are still on their way to it
                await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> nodes.servers()
                        .stream().allMatch(node -> node.redis(r -> r.zcard(ItSupport.queueOf("early"))) > 0));
                assertThat(listeners(nodes, "early")).as("the waiter does not listen yet").isZero();
                held.release();

                // well before polling could bring it in; the subscription and a round through the proxies take 4 s
                waiting.get(15, TimeUnit.SECONDS).orElseThrow().release();
            }
        } finally {
            proxies.forEach(TcpProxy::close);
        }
    }

    private static long listeners(RedisNodes nodes, String resource) {
        String channel = resource + ":released";
        long listening = 0;
        for (RedisServer node : nodes) {
            Map<String, Long> count = node.redis(r -> r.pubsubNumsub(channel));
            listening += count.getOrDefault(channel, 0L);
        }
        return listening;
    }
}
