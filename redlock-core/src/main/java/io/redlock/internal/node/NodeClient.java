package io.redlock.internal.node;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.redlock.NodeFailure;
import io.redlock.Ticker;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One quorum member: a single multiplexed Lettuce connection, established in the background, to one Redis server
 * (or the master a sentinel names), or to a Redis Cluster (Lettuce's cluster connection, one socket per shard).
 *
 * <p>Commands are dispatched synchronously on the caller's thread, so two commands issued one after the other reach
 * the node in that order (an acquire's SET always precedes the release that undoes it). Without a connection a
 * command fails at once instead of queueing. After the first connection Lettuce reconnects by itself; until then this
 * class retries the connection at most every {@value #RECONNECT_INTERVAL_MILLIS} ms.
 *
 * <p>Replies are matched to commands by their order on the connection. If a command times out while the connection
 * stays up, its reply was lost (or is very late), and every later reply would be matched to the wrong command: the
 * connection is dropped and a fresh one opened, so a reply can never be taken for another command's.
 */
public final class NodeClient implements AutoCloseable, BatchedConnection.Sink {

    /** Opens a connection to the member: {@code RedisClient} or {@code RedisClusterClient}. */
    @FunctionalInterface
    interface Connector {
        CompletionStage<? extends StatefulConnection<String, String>> connect();
    }

    static final long RECONNECT_INTERVAL_MILLIS = 100;

    private static final Logger log = LoggerFactory.getLogger(NodeClient.class);

    private final String name;
    private final Connector connector;
    /** Whether the member is a Redis Cluster, whose commands may be redirected (so their order is not kept). */
    private final boolean cluster;
    private final Ticker ticker;
    private final Redaction redaction;
    private final Flusher flusher;
    /** The scripts this node runs, and their batch. */
    private final ScriptBatch batch;

    private final Object lock = new Object();
    private CompletableFuture<Void> connecting;
    private volatile BatchedConnection connection;
    private Throwable lastFailure;
    /** Whether a refused connection (wrong credentials, say) was logged at WARN already. */
    private final AtomicBoolean refusalTold = new AtomicBoolean();
    private long lastAttempt;
    private boolean closed;

    NodeClient(String name, Connector connector, boolean cluster, Ticker ticker, Redaction redaction,
            Flusher flusher, ScriptBatch batch) {
        this.name = name;
        this.connector = connector;
        this.cluster = cluster;
        this.ticker = ticker;
        this.redaction = redaction;
        this.flusher = flusher;
        this.batch = batch;
    }

    /**
     * A copy of {@code uri} whose timeout also bounds the connection handshake (Lettuce's default would wait 60 s for
     * a lost PONG). {@code RedisURI.builder(uri)} does not copy a sentinel URI's master and sentinels: they are added.
     */
    static RedisURI withTimeout(RedisURI uri, Duration timeout) {
        RedisURI.Builder copy = RedisURI.builder(uri).withTimeout(timeout);
        if (uri.getSentinelMasterId() != null) {
            copy.withSentinelMasterId(uri.getSentinelMasterId());
            uri.getSentinels().forEach(copy::withSentinel);
        }
        return copy.build();
    }

    public String name() {
        return name;
    }

    /** True if the member is a Redis Cluster. */
    public boolean cluster() {
        return cluster;
    }

    /** Starts connecting; the stage completes (normally, even on failure) once the outcome is recorded. */
    CompletableFuture<Void> connect() {
        synchronized (lock) {
            return startConnect();
        }
    }

    /** {@code SET key value NX PX ttl}: "OK" if set, null if the key exists. */
    public CompletionStage<String> setNxPx(String key, String value, long ttlMillis) {
        BatchedConnection conn = connection;
        if (conn == null) {
            return unavailable();
        }
        SetCall call = new SetCall(conn, key, value, ttlMillis);
        conn.setNxPx(call);
        return call;
    }

    /**
     * Runs a script with EVALSHA, falling back to EVAL when the node does not know it (NOSCRIPT); runs queued for the
     * node in the same turn share one call (see {@link BatchedConnection}).
     */
    public CompletionStage<Long> eval(Script script, String key, String... args) {
        return eval(script, new String[] {key}, args);
    }

    /** Runs a script on several keys, as {@link #eval(Script, String, String...)}. */
    public CompletionStage<Long> eval(Script script, String[] keys, String... args) {
        return run(script, keys, args, false);
    }

    /**
     * A delete, as {@link #eval(Script, String[], String...)}, but paced: in a burst of deletes it waits behind the
     * window of deletes on their way, and what is queued after it (an extension, an acquire) passes it.
     */
    public CompletionStage<Long> evalPaced(Script script, String[] keys, String... args) {
        return run(script, keys, args, true);
    }

    /**
     * Queues a run of {@code script}, one of the batch's (so that it can share a batch), on the current connection;
     * fails at once without a connection. Written out rather than through {@link #queue}: it runs for every node of
     * every lock operation, and a capturing lambda would be one more object each time.
     */
    private CompletionStage<Long> run(Script script, String[] keys, String[] args, boolean paced) {
        BatchedConnection conn = connection;
        if (conn == null) {
            return unavailable();
        }
        batch.check(script, keys, args);
        ScriptCall call = new ScriptCall(conn, script, keys, args, paced);
        conn.eval(call);
        return call;
    }

    /** Any command on this node's connection; fails at once without a connection. */
    public <T> CompletionStage<T> command(Function<RedisClusterAsyncCommands<String, String>, CompletionStage<T>> command) {
        return queue((conn, reply) -> conn.send(command, reply));
    }

    /** Queues a command on the current connection, its reply to complete; fails at once without a connection. */
    private <T> CompletionStage<T> queue(BiConsumer<BatchedConnection, CompletableFuture<T>> command) {
        BatchedConnection conn = connection;
        if (conn == null) {
            return unavailable();
        }
        CompletableFuture<T> reply = new NodeReply<>(conn);
        command.accept(conn, reply);
        return reply;
    }

    /**
     * Whether {@code reply} is of a command queued on this node's current connection: a command queued now reaches
     * the node after it, whenever its reply comes. After a reconnect (or for a command never sent) it is not, and on
     * a Redis Cluster never: a redirected command is sent again later, behind what was queued after it.
     */
    public boolean sameConnection(CompletableFuture<?> reply) {
        return !cluster && reply instanceof NodeReply<?> sent && sent.connection() == connection;
    }

    @Override
    public <T> void settle(BatchedConnection conn, CompletableFuture<T> reply, T result, Throwable failure) {
        watchForLostReply(conn, failure);
        flusher.completeAsReply(reply, result, failure);
    }

    /** Drops the connection if a command timed out: later replies on it can no longer be trusted to match. */
    private void watchForLostReply(BatchedConnection conn, Throwable failure) {
        if (failure != null && Failures.unwrap(failure) instanceof RedisCommandTimeoutException) {
            dropConnection(conn);
        }
    }

    private void dropConnection(BatchedConnection conn) {
        synchronized (lock) {
            if (connection != conn || closed) {
                return;
            }
            connection = null;
            lastFailure = new NodeUnavailableException(name + ": a reply was lost; reconnecting", null);
            startConnect();
        }
        log.warn("{}: a command timed out with the connection up; dropped it so no reply can be matched to the wrong"
                + " command", name);
        conn.closeAsync();
    }

    private <T> CompletionStage<T> unavailable() {
        Throwable cause;
        synchronized (lock) {
            if (closed) {
                return CompletableFuture.failedFuture(new NodeUnavailableException(name + " is closed", null));
            }
            if (connecting == null && ticker.read() - lastAttempt >= TimeUnit.MILLISECONDS.toNanos(
                    RECONNECT_INTERVAL_MILLIS)) {
                startConnect();
            }
            cause = lastFailure;
        }
        String reason = cause == null ? "not connected yet" : "not connected";
        return CompletableFuture.failedFuture(new NodeUnavailableException(name + " " + reason, cause));
    }

    /** Caller holds {@link #lock}. The returned stage completes after {@link #connected} recorded the outcome. */
    private CompletableFuture<Void> startConnect() {
        if (connecting != null) {
            return connecting;
        }
        lastAttempt = ticker.read();
        CompletableFuture<Void> settled = connector.connect().toCompletableFuture()
                .handle((conn, failure) -> {
                    connected(conn, failure);
                    return null;
                });
        if (!settled.isDone()) {
            connecting = settled;
        }
        return settled;
    }

    private void connected(StatefulConnection<String, String> conn, Throwable failure) {
        boolean closeIt;
        BatchedConnection batched = null;
        synchronized (lock) {
            connecting = null;
            closeIt = closed && conn != null;
            if (!closed && conn != null) {
                batched = new BatchedConnection(conn, flusher, this, batch);
                connection = batched;
                lastFailure = null;
            } else if (failure != null) {
                lastFailure = Failures.unwrap(failure);
            }
        }
        if (closeIt) {
            conn.closeAsync();
            return;
        }
        if (conn != null) {
            log.debug("{}: connected", name);
            for (Script script : batch.loaded()) {
                CompletableFuture<String> loaded = new CompletableFuture<>();
                loaded.whenComplete((sha, e) -> {
                    flusher.noteLoop();
                    if (e != null) {
                        log.debug("{}: SCRIPT LOAD {} failed: {}", name, script.name(), redaction.scrub(e.toString()));
                    }
                });
                batched.send(redis -> redis.scriptLoad(script.text()), loaded);
            }
        } else if (Failures.kind(failure) == NodeFailure.Kind.ERROR && refusalTold.compareAndSet(false, true)) {
            // a refusal retrying will not fix (credentials, ACL): once, loudly; the reconnects that follow quietly
            log.warn("{}: the node refused the connection ({}); it has no vote until that is fixed", name,
                    Failures.of(name, failure, redaction).reason());
        } else {
            log.debug("{}: connection failed: {}", name, redaction.scrub(Failures.unwrap(failure).toString()));
        }
    }

    @Override
    public void close() {
        BatchedConnection conn;
        synchronized (lock) {
            closed = true;
            conn = connection;
            connection = null;
        }
        if (conn != null) {
            conn.close();
        }
    }
}
