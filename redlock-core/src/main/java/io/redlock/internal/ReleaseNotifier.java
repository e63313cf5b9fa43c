package io.redlock.internal;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.redlock.RedlockConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells waiting acquisitions that a resource was released: one pub/sub connection per node, opened on first use,
 * subscribed to {@code <key>:released} while anyone waits for that key. Every node publishes its own copy of an
 * event: a holder's release counts once a majority of nodes reported it, a failed attempt's clean-up at its first
 * copy. The copies of different events may interleave. A lost message only costs the waiter its polling delay.
 */
final class ReleaseNotifier implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReleaseNotifier.class);
    /** How many distinct events a subscription keeps counting copies of at once. */
    private static final int RECENT_EVENTS = 16;

    private final RedisClient client;
    private final List<RedisURI> uris;
    private final Redaction redaction;
    private final List<CompletableFuture<StatefulRedisPubSubConnection<String, String>>> connections;
    private final Map<String, Set<Subscription>> byChannel = new ConcurrentHashMap<>();
    private final int quorum;
    private boolean closed;

    ReleaseNotifier(RedisClient client, List<RedisURI> uris, Redaction redaction) {
        this.client = client;
        this.uris = uris;
        this.redaction = redaction;
        this.quorum = RedlockConfig.quorumOf(uris.size());
        this.connections = new ArrayList<>(uris.size());
        for (int i = 0; i < uris.size(); i++) {
            connections.add(null);
        }
    }

    /** Starts telling {@code listener} about {@code key}'s lock events; close the subscription when done waiting. */
    synchronized Subscription subscribe(String key, Listener listener) {
        String channel = Keys.of(key).released();
        Subscription subscription = new Subscription(channel, listener);
        if (closed) {
            return subscription;
        }
        Set<Subscription> waiting = byChannel.computeIfAbsent(channel, c -> ConcurrentHashMap.newKeySet());
        boolean first = waiting.isEmpty();
        waiting.add(subscription);
        if (first) {
            for (int i = 0; i < uris.size(); i++) {
                connection(i).thenAccept(c -> c.async().subscribe(channel));
            }
        }
        return subscription;
    }

    private synchronized void unsubscribe(Subscription subscription) {
        Set<Subscription> waiting = byChannel.get(subscription.channel);
        if (waiting == null || !waiting.remove(subscription) || !waiting.isEmpty()) {
            return;
        }
        byChannel.remove(subscription.channel);
        for (CompletableFuture<StatefulRedisPubSubConnection<String, String>> c : connections) {
            if (c != null && c.isDone() && !c.isCompletedExceptionally()) {
                c.join().async().unsubscribe(subscription.channel);
            }
        }
    }

    /** Caller holds the monitor. The node's connection, (re)opened if it failed before. */
    private CompletableFuture<StatefulRedisPubSubConnection<String, String>> connection(int node) {
        CompletableFuture<StatefulRedisPubSubConnection<String, String>> current = connections.get(node);
        if (current == null || current.isCompletedExceptionally()) {
            current = client.connectPubSubAsync(StringCodec.UTF8, uris.get(node)).toCompletableFuture();
            current.whenComplete((c, failure) -> {
                if (failure != null) {
                    log.debug("{}: no release notifications: {}", Redaction.nodeName(uris.get(node)),
                            redaction.scrub(Failures.unwrap(failure).toString()));
                } else {
                    c.addListener(new RedisPubSubAdapter<>() {
                        @Override
                        public void message(String channel, String message) {
                            released(channel, message, node);
                        }
                    });
                }
            });
            connections.set(node, current);
        }
        return current;
    }

    private void released(String channel, String message, int node) {
        Set<Subscription> waiting = byChannel.get(channel);
        if (waiting != null) {
            waiting.forEach(subscription -> subscription.signal(message, node));
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        byChannel.clear();
        for (CompletableFuture<StatefulRedisPubSubConnection<String, String>> c : connections) {
            if (c != null) {
                c.thenAccept(StatefulRedisPubSubConnection::closeAsync);
            }
        }
    }

    /** What a waiter hears about its key. Called on I/O threads: return quickly. */
    interface Listener {
        /** A holder's release reached a majority of nodes, or ({@code cleanup}) a failed attempt gave nodes back. */
        void released(boolean cleanup);
    }

    /** One waiter's subscription: counts the per-node copies of each event and tells its listener once. */
    final class Subscription implements AutoCloseable {
        private final String channel;
        private final Listener listener;
        /** The nodes that reported each recent event; events from several clients interleave (guarded by this). */
        private final Map<String, Long> reportedBy = new LinkedHashMap<>(RECENT_EVENTS * 2) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
                return size() > RECENT_EVENTS;
            }
        };

        private Subscription(String channel, Listener listener) {
            this.channel = channel;
            this.listener = listener;
        }

        /** A release counts at the majority of copies (then a majority is free), a clean-up at its first copy. */
        private void signal(String message, int node) {
            Runnable event;
            synchronized (this) {
                long before = reportedBy.getOrDefault(message, 0L);
                long now = before | 1L << node;
                if (now == before) {
                    return;
                }
                reportedBy.put(message, now);
                int copies = Long.bitCount(now);
                if (message.startsWith(Scripts.RELEASED_BY_CLEANUP)) {
                    event = copies == 1 ? () -> listener.released(true) : null;
                } else {
                    event = copies == quorum ? () -> listener.released(false) : null;
                }
            }
            if (event != null) {
                event.run();
            }
        }

        @Override
        public void close() {
            unsubscribe(this);
        }
    }
}
