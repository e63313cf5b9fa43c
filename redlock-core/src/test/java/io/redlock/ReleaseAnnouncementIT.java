package io.redlock;

import static io.redlock.ItSupport.redlockOn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.redlock.internal.protocol.Keys;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.RedisServer;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * A release is announced only where someone can hear it. Property: outside a Redis Cluster, a node publishes a
 * release on the resource's channel exactly while some client of that node subscribes to the channel; with or without
 * a listener, the release deletes the lock key on every node. (A cluster member announces every release: its nodes
 * deliver to each other's subscribers, which one node's count does not see; ClusterMemberIT.)
 */
@WithRedisNodes(3)
class ReleaseAnnouncementIT {

    private static final Duration TTL = Duration.ofSeconds(10);

    @Test
    void aReleaseNobodyListensToIsNotPublishedAndStillFreesTheLock(RedisNodes nodes) {
        for (boolean fencing : List.of(true, false)) {
            String resource = "unheard-" + fencing;
            try (Redlock redlock = redlockOn(nodes).fencing(fencing).build()) {
                nodes.servers().forEach(RedisServer::resetStats);
                for (int i = 0; i < 20; i++) {
                    redlock.tryAcquire(resource, TTL).orElseThrow().release();
                }
                await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                    for (RedisServer node : nodes.servers()) {
                        assertThat(node.calls("pubsub|numsub")).as("listener checks on %s", node).isEqualTo(20);
                        assertThat(node.get(resource)).as("the lock key on %s", node).isNull();
                    }
                });
                for (RedisServer node : nodes.servers()) {
                    assertThat(node.calls("publish")).as("announcements on %s, fencing %s", node, fencing).isZero();
                }
            }
        }
    }

    @Test
    void aNodeWithAListenerPublishesEachReleaseToItAndTheOthersStayQuiet(RedisNodes nodes) {
        String resource = "heard";
        RedisServer listened = nodes.node(1);
        RedisClient client = RedisClient.create(listened.uri());
        List<String> heard = new CopyOnWriteArrayList<>();
        try (StatefulRedisPubSubConnection<String, String> listener = client.connectPubSub();
                Redlock redlock = redlockOn(nodes).build()) {
            listener.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    heard.add(message);
                }
            });
            listener.sync().subscribe(Keys.of(resource).released());
            nodes.servers().forEach(RedisServer::resetStats);

            for (int i = 0; i < 3; i++) {
                redlock.tryAcquire(resource, TTL).orElseThrow().release();
            }

            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
                assertThat(heard).hasSize(3);
                for (RedisServer node : nodes.servers()) {
                    assertThat(node.calls("pubsub|numsub")).as("listener checks on %s", node).isEqualTo(3);
                }
            });
            assertThat(heard).allSatisfy(message -> assertThat(message).startsWith("r:").endsWith(">"));
            assertThat(listened.calls("publish")).isEqualTo(3);
            for (RedisServer node : nodes.servers()) {
                if (node != listened) {
                    assertThat(node.calls("publish")).as("announcements on %s, where nobody listens", node).isZero();
                }
                assertThat(node.get(resource)).as("the lock key on %s", node).isNull();
            }
        } finally {
            client.shutdown();
        }
    }
}
