package io.redlock.internal;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.codec.StringCodec;
import io.redlock.Ticker;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Redis node: a single multiplexed Lettuce connection, established in the background.
 *
 * <p>Commands are dispatched synchronously on the caller's thread, so two commands issued one after the other reach
 * the node in that order (an acquire's SET always precedes the release that undoes it). Without a connection a
 * command fails at once instead of queueing. After the first connection Lettuce reconnects by itself; until then this
 * class retries the connection at most every {@value #RECONNECT_INTERVAL_MILLIS} ms.
 */
final class NodeClient implements AutoCloseable {

    static final long RECONNECT_INTERVAL_MILLIS = 100;

    private static final Logger log = LoggerFactory.getLogger(NodeClient.class);

    private final RedisURI uri;
    private final String name;
    private final RedisClient client;
    private final Ticker ticker;
    private final Redaction redaction;

    private final Object lock = new Object();
    private CompletableFuture<Void> connecting;
    private volatile StatefulRedisConnection<String, String> connection;
    private Throwable lastFailure;
    private long lastAttempt;
    private boolean closed;

    NodeClient(RedisURI uri, RedisClient client, Ticker ticker, Redaction redaction) {
        this.uri = uri;
        this.name = Redaction.nodeName(uri);
        this.client = client;
        this.ticker = ticker;
        this.redaction = redaction;
    }

    String name() {
        return name;
    }

    /** Starts connecting; the stage completes (normally, even on failure) once the outcome is recorded. */
    CompletableFuture<Void> connect() {
        synchronized (lock) {
            return startConnect();
        }
    }

    /** {@code SET key value NX PX ttl}: "OK" if set, null if the key exists. */
    CompletionStage<String> setNxPx(String key, String value, long ttlMillis) {
        return command(redis -> redis.set(key, value, SetArgs.Builder.nx().px(ttlMillis)));
    }

    /** Runs a script with EVALSHA, falling back to EVAL when the node does not know it (NOSCRIPT). */
    CompletionStage<Long> eval(Script script, String key, String... args) {
        return eval(script, new String[] {key}, args);
    }

    /** Runs a script on several keys, as {@link #eval(Script, String, String...)}. */
    CompletionStage<Long> eval(Script script, String[] keys, String... args) {
        StatefulRedisConnection<String, String> conn = connection;
        if (conn == null) {
            return unavailable();
        }
        return script.run(conn.async(), ScriptOutputType.INTEGER, keys, args);
    }

    /** Any command on this node's connection; fails at once without a connection. */
    <T> CompletionStage<T> command(Function<RedisAsyncCommands<String, String>, CompletionStage<T>> command) {
        StatefulRedisConnection<String, String> conn = connection;
        if (conn == null) {
            return unavailable();
        }
        try {
            return command.apply(conn.async());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
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
        CompletableFuture<Void> settled = client.connectAsync(StringCodec.UTF8, uri).toCompletableFuture()
                .handle((conn, failure) -> {
                    connected(conn, failure);
                    return null;
                });
        if (!settled.isDone()) {
            connecting = settled;
        }
        return settled;
    }

    private void connected(StatefulRedisConnection<String, String> conn, Throwable failure) {
        boolean closeIt;
        synchronized (lock) {
            connecting = null;
            closeIt = closed && conn != null;
            if (!closed && conn != null) {
                connection = conn;
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
            for (Script script : Scripts.ALL) {
                conn.async().scriptLoad(script.text()).whenComplete((sha, e) -> {
                    if (e != null) {
                        log.debug("{}: SCRIPT LOAD {} failed: {}", name, script.name(), redaction.scrub(e.toString()));
                    }
                });
            }
        } else {
            log.debug("{}: connection failed: {}", name, redaction.scrub(Failures.unwrap(failure).toString()));
        }
    }

    @Override
    public void close() {
        StatefulRedisConnection<String, String> conn;
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
