package io.redlock.internal.release;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.redlock.RedlockConfig;
import io.redlock.internal.node.Failures;
import io.redlock.internal.node.Redaction;
import io.redlock.internal.protocol.Keys;
import io.redlock.internal.protocol.Scripts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells waiting acquisitions that a resource was released: one pub/sub connection per node, opened on first use,
 * subscribed to {@code <key>:released} while anyone waits for that key. Every node publishes its own copy of an
 * event: a holder's release counts once a majority of nodes reported it, a failed attempt's clean-up at its first
 * copy. The copies of different events may interleave. A holder's release is for the first waiter in the queue: a
 * queued waiter hears it only if some node named it first, or named nobody (so a release does not make the whole
 * queue try at once, to be refused but one). A lost message only costs the waiter its polling delay.
 */
public final class ReleaseNotifier implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ReleaseNotifier.class);
    /** How many distinct events a subscription keeps counting copies of at once. */
    private static final int RECENT_EVENTS = 16;

    private final RedisClient client;
    private final List<RedisURI> uris;
    private final Redaction redaction;
    private final List<CompletableFuture<StatefulRedisPubSubConnection<String, String>>> connections;
    private final Map<String, Set<Subscription>> byChannel = new ConcurrentHashMap<>();
    /** Per channel with subscribers: done once a majority of nodes confirmed the channel's SUBSCRIBE. */
    private final Map<String, CompletableFuture<Void>> inPlace = new ConcurrentHashMap<>();
    private final int quorum;
    private boolean closed;

    public ReleaseNotifier(RedisClient client, List<RedisURI> uris, Redaction redaction) {
        this.client = client;
        this.uris = uris;
        this.redaction = redaction;
        this.quorum = RedlockConfig.quorumOf(uris.size());
        this.connections = new ArrayList<>(uris.size());
        for (int i = 0; i < uris.size(); i++) {
            connections.add(null);
        }
    }

    /**
     * Starts telling {@code listener} about the lock events announced on {@code channel} (a resource's
     * {@link Keys#released()}); close the subscription when done waiting. {@code waiterId} is the listener's place in
     * the waiter queues (null if it does not queue: it hears every release).
     */
    public synchronized Subscription subscribe(String channel, String waiterId, Listener listener) {
        if (closed) {
            return new Subscription(channel, waiterId, listener, new CompletableFuture<>());
        }
        Set<Subscription> waiting = byChannel.computeIfAbsent(channel, c -> ConcurrentHashMap.newKeySet());
        if (waiting.isEmpty()) {
            CompletableFuture<Void> confirmed = new CompletableFuture<>();
            inPlace.put(channel, confirmed);
            AtomicInteger confirmations = new AtomicInteger();
            for (int i = 0; i < uris.size(); i++) {
                connection(i).thenCompose(c -> c.async().subscribe(channel)).thenRun(() -> {
                    if (confirmations.incrementAndGet() == quorum) {
                        confirmed.complete(null);
                    }
                });
            }
        }
        Subscription subscription = new Subscription(channel, waiterId, listener, inPlace.get(channel));
        waiting.add(subscription);
        return subscription;
    }

    private synchronized void unsubscribe(Subscription subscription) {
        Set<Subscription> waiting = byChannel.get(subscription.channel);
        if (waiting == null || !waiting.remove(subscription) || !waiting.isEmpty()) {
            return;
        }
        byChannel.remove(subscription.channel);
        inPlace.remove(subscription.channel);
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
        inPlace.clear();
        for (CompletableFuture<StatefulRedisPubSubConnection<String, String>> c : connections) {
            if (c != null) {
                c.thenAccept(StatefulRedisPubSubConnection::closeAsync);
            }
        }
    }

    /** What a waiter hears about its key. Called on I/O threads: return quickly. */
    public interface Listener {
        /** A holder's release reached a majority of nodes, or ({@code cleanup}) a failed attempt gave nodes back. */
        void released(boolean cleanup);
    }

    /** One waiter's subscription: counts the per-node copies of each event and tells its listener once. */
    public final class Subscription implements AutoCloseable {
        private final String channel;
        private final String waiterId;
        private final Listener listener;
        private final CompletableFuture<Void> inPlace;
        /** The copies of each recent event; events from several clients interleave (guarded by this). */
        private final Map<String, Copies> reportedBy = new LinkedHashMap<>(RECENT_EVENTS * 2) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Copies> eldest) {
                return size() > RECENT_EVENTS;
            }
        };

        private Subscription(String channel, String waiterId, Listener listener, CompletableFuture<Void> inPlace) {
            this.channel = channel;
            this.waiterId = waiterId;
            this.listener = listener;
            this.inPlace = inPlace;
        }

        /**
         * Done once a majority of nodes confirmed the channel's subscription (at once if it was in place already):
         * from then on this waiter hears every release; one that came before it may have gone unheard.
         */
        public CompletableFuture<Void> inPlace() {
            return inPlace;
        }

        /**
         * A release counts at the majority of copies (then a majority is free) if one of them named this waiter
         * first or nobody; a clean-up counts at its first copy.
         */
        private void signal(String message, int node) {
            int end = message.lastIndexOf(Scripts.FIRST_WAITER);
            String event = end < 0 ? message : message.substring(0, end);
            String first = end < 0 ? "" : message.substring(end + 1);
            boolean cleanup = event.startsWith(Scripts.RELEASED_BY_CLEANUP);
            synchronized (this) {
                Copies copies = reportedBy.computeIfAbsent(event, e -> new Copies());
                long before = copies.nodes;
                copies.nodes |= 1L << node;
                copies.forMe |= waiterId == null || first.isEmpty() || first.equals(waiterId);
                int count = Long.bitCount(copies.nodes);
                boolean tell = !copies.told && copies.nodes != before
                        && (cleanup || (count >= quorum && copies.forMe));
                if (!tell) {
                    return;
                }
                copies.told = true;
            }
            listener.released(cleanup);
        }

        @Override
        public void close() {
            unsubscribe(this);
        }
    }

    /** Which nodes reported one event, whether one named this waiter (or nobody) first, and whether it was told. */
    private static final class Copies {
        long nodes;
        boolean forMe;
        boolean told;
    }
}
