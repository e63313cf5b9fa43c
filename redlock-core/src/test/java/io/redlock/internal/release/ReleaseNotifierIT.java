package io.redlock.internal.release;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.redlock.internal.node.Redaction;
import io.redlock.internal.protocol.Keys;
import io.redlock.testkit.RedisNodes;
import io.redlock.testkit.junit.WithRedisNodes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Release events as waiters hear them: every node sends its own copy, and copies of different events interleave. */
@WithRedisNodes(5)
class ReleaseNotifierIT {

    private static final String KEY = "notified";
    private static final String CHANNEL = Keys.of(KEY).released();

    @Test
    void aReleaseCountsAtAMajorityOfCopiesEvenWhenOtherEventsInterleave(RedisNodes nodes) {
        RedisClient client = RedisClient.create();
        List<String> heard = new CopyOnWriteArrayList<>();
        try (ReleaseNotifier notifier = notifier(client, nodes);
                ReleaseNotifier.Subscription subscription = notifier.subscribe(Keys.of(KEY).released(), null,
                        cleanup -> heard.add(cleanup ? "clean-up" : "release"))) {
            awaitSubscribed(nodes);

            publish(nodes, 0, "r:holder");
            publish(nodes, 1, "c:loser"); // another attempt's clean-up, between the release's copies
            publish(nodes, 1, "r:holder");
            publish(nodes, 2, "c:loser");
            publish(nodes, 2, "r:holder"); // the third copy of five: a majority of the nodes is free
            publish(nodes, 3, "r:holder");

            await().atMost(Duration.ofSeconds(5)).until(() -> heard.contains("release"));
            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5))
                    .until(() -> heard.equals(List.of("clean-up", "release")));
        } finally {
            client.shutdown();
        }
    }

    @Test
    void aReleaseWakesTheWaiterTheNodesNameFirstAndNoOtherQueuedWaiter(RedisNodes nodes) {
        RedisClient client = RedisClient.create();
        List<String> heard = new CopyOnWriteArrayList<>();
        try (ReleaseNotifier notifier = notifier(client, nodes);
                ReleaseNotifier.Subscription first = notifier.subscribe(Keys.of(KEY).released(), "w1", cleanup -> heard.add("w1"));
                ReleaseNotifier.Subscription second = notifier.subscribe(Keys.of(KEY).released(), "w2", cleanup -> heard.add("w2"));
                ReleaseNotifier.Subscription unqueued = notifier.subscribe(Keys.of(KEY).released(), null, cleanup -> heard.add("any"))) {
            awaitSubscribed(nodes);

            for (int node = 0; node < 3; node++) {
                publish(nodes, node, "r:holder>w1");
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.size() == 2);
            await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5))
                    .until(() -> heard.containsAll(List.of("w1", "any")) && heard.size() == 2);

            heard.clear();
            for (int node = 0; node < 3; node++) {
                publish(nodes, node, "r:next>"); // nobody queued on these nodes: everyone may try
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> heard.size() == 3);
        } finally {
            client.shutdown();
        }
    }

    private static ReleaseNotifier notifier(RedisClient client, RedisNodes nodes) {
        List<RedisURI> uris = nodes.uris().stream().map(RedisURI::create).toList();
        return new ReleaseNotifier(client, uris, Redaction.of(uris));
    }

    /** Waits until every node has the one subscriber of the channel (the notifier's connection to it). */
    private static void awaitSubscribed(RedisNodes nodes) {
        await().atMost(Duration.ofSeconds(5)).until(() -> nodes.servers().stream()
                .allMatch(node -> node.<Long>redis(redis -> redis.pubsubNumsub(CHANNEL).get(CHANNEL)) == 1));
    }

    private static void publish(RedisNodes nodes, int node, String message) {
        nodes.node(node).redis(redis -> redis.publish(CHANNEL, message));
    }
}
