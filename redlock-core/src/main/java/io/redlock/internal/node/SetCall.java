package io.redlock.internal.node;

import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;

/**
 * {@code SET key value NX PX ttl} queued for a node (the acquire without fencing), and its reply: "OK" if set, null if
 * the key exists. Encoded straight into Netty's buffer, like {@link ScriptCommand}.
 */
final class SetCall extends NodeReply<String> {

    private final String key;
    private final String value;
    private final long ttlMillis;

    SetCall(BatchedConnection connection, String key, String value, long ttlMillis) {
        super(connection);
        this.key = key;
        this.value = value;
        this.ttlMillis = ttlMillis;
    }

    /** The command Lettuce writes; {@code routed}: carrying its key for a Redis Cluster's router. */
    Command<String, String, String> command(boolean routed) {
        return new Command<>(CommandType.SET, new StatusOutput<>(ExactUtf8Codec.INSTANCE),
                routed ? ScriptCommand.routing(key) : null) {
            @Override
            public void encode(ByteBuf out) {
                Resp.arrayHeader(out, 6);
                Resp.bulk(out, "SET");
                Resp.bulk(out, key);
                Resp.bulk(out, value);
                Resp.bulk(out, "NX");
                Resp.bulk(out, "PX");
                Resp.bulk(out, ttlMillis);
            }
        };
    }
}
