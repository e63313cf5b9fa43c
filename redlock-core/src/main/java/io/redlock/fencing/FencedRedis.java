package io.redlock.fencing;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulRedisConnection;
import io.redlock.internal.locks.Blocking;
import io.redlock.internal.node.Script;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * Fenced reads and writes on a Redis used as the protected storage. For each data key {@code K} the highest token
 * accepted so far, and the lease value that holds it, live in the hash {@code K:hw} (fields {@code token},
 * {@code owner}). Every operation is one Lua script: the token check, the record and the operation are atomic.
 *
 * <p>A write is accepted if its token is larger than the recorded one, or equal and from the same lease. A read is
 * fenced the same way and records its token, so a stale holder that read before a newer holder cannot write back
 * what it read.
 *
 * <p>Thread-safe. Uses the connection it is given and never closes it.
 */
public final class FencedRedis {

    /** Suffix of the hash that holds a key's highest accepted token and its owner. */
    public static final String HIGH_WATER_SUFFIX = ":hw";

    static final Script FENCED = Script.load(FencedRedis.class, "fenced-op");

    private final StatefulRedisConnection<String, String> connection;

    private FencedRedis(StatefulRedisConnection<String, String> connection) {
        this.connection = Objects.requireNonNull(connection, "connection");
    }

    /** Fenced operations over {@code connection} (not closed by this class). */
    public static FencedRedis on(StatefulRedisConnection<String, String> connection) {
        return new FencedRedis(connection);
    }

    /** {@code SET key value} if the fence is current. */
    public FencedResult<Void> set(String key, String value, Fence fence) {
        return Blocking.await(setAsync(key, value, fence), "fenced SET " + key);
    }

    public CompletionStage<FencedResult<Void>> setAsync(String key, String value, Fence fence) {
        return this.<Void>run(key, fence, "set", value);
    }

    /** {@code HSET key field value} if the fence is current. */
    public FencedResult<Void> hset(String key, String field, String value, Fence fence) {
        return Blocking.await(hsetAsync(key, field, value, fence), "fenced HSET " + key);
    }

    public CompletionStage<FencedResult<Void>> hsetAsync(String key, String field, String value, Fence fence) {
        return this.<Void>run(key, fence, "hset", field, value);
    }

    /** {@code GET key} if the fence is current, recording its token. */
    public FencedResult<String> get(String key, Fence fence) {
        return Blocking.await(getAsync(key, fence), "fenced GET " + key);
    }

    public CompletionStage<FencedResult<String>> getAsync(String key, Fence fence) {
        return run(key, fence, "get");
    }

    /** {@code HGET key field} if the fence is current, recording its token. */
    public FencedResult<String> hget(String key, String field, Fence fence) {
        return Blocking.await(hgetAsync(key, field, fence), "fenced HGET " + key);
    }

    public CompletionStage<FencedResult<String>> hgetAsync(String key, String field, Fence fence) {
        return run(key, fence, "hget", field);
    }

    /** The highest token accepted for {@code key}, or 0 if none. */
    public long highestToken(String key) {
        String token = Blocking.await(connection.async().hget(key + HIGH_WATER_SUFFIX, "token"), "HGET " + key);
        return token == null ? 0 : Long.parseLong(token);
    }

    @SuppressWarnings("unchecked")
    private <T> CompletionStage<FencedResult<T>> run(String key, Fence fence, String op, String... operands) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(fence, "fence");
        String[] args = new String[3 + operands.length];
        args[0] = Long.toString(fence.token());
        args[1] = fence.owner();
        args[2] = op;
        System.arraycopy(operands, 0, args, 3, operands.length);
        return FENCED.<List<Object>>run(connection.async(), ScriptOutputType.MULTI,
                new String[] {key, key + HIGH_WATER_SUFFIX}, args).thenApply(reply -> {
                    long accepted = (Long) reply.get(0);
                    long token = Long.parseLong((String) reply.get(1));
                    return accepted == 1 ? FencedResult.accepted(reply.size() > 2 ? (T) reply.get(2) : null, token)
                            : FencedResult.rejected(fence.token(), token);
                });
    }
}
