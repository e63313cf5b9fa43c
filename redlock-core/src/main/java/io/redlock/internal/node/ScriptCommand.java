package io.redlock.internal.node;

import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.netty.buffer.ByteBuf;
import java.util.List;

/**
 * EVALSHA (or EVAL) of queued {@link ScriptCall}s, encoded straight into Netty's buffer: one call as its own script,
 * several as one call of the batch script (see {@link ScriptBatch} for its KEYS and ARGV). Lettuce's own
 * builder makes an object per argument and a string per length; this writes the bytes.
 */
final class ScriptCommand<T> extends Command<String, String, T> {

    private final Script script;
    /** The batch the calls are numbered in; null for one call of its own script. */
    private final ScriptBatch batch;
    private final boolean bySha;
    private final List<ScriptCall> calls;

    private ScriptCommand(Script script, ScriptBatch batch, boolean bySha, boolean routed, List<ScriptCall> calls,
            CommandOutput<String, String, T> output) {
        super(bySha ? CommandType.EVALSHA : CommandType.EVAL, output, routed ? routing(calls.get(0).keys()[0]) : null);
        this.script = script;
        this.batch = batch;
        this.bySha = bySha;
        this.calls = calls;
    }

    /** One call of its own script; {@code routed}: carrying its first key for a Redis Cluster's router. */
    static <T> ScriptCommand<T> single(ScriptCall call, boolean bySha, boolean routed,
            CommandOutput<String, String, T> output) {
        return new ScriptCommand<>(call.script(), null, bySha, routed, List.of(call), output);
    }

    /** Several calls (of one slot, for a Redis Cluster) in one call of {@code batch}'s script. */
    static <T> ScriptCommand<T> batch(ScriptBatch batch, List<ScriptCall> calls, boolean bySha, boolean routed,
            CommandOutput<String, String, T> output) {
        return new ScriptCommand<>(batch.script(), batch, bySha, routed, calls, output);
    }

    /**
     * Arguments that are never written (this command encodes itself) but tell Lettuce's cluster router the slot,
     * and where to send the command again after a MOVED or ASK.
     */
    static CommandArgs<String, String> routing(String key) {
        return new CommandArgs<>(ExactUtf8Codec.INSTANCE).addKey(key);
    }

    @Override
    public void encode(ByteBuf out) {
        int keys = 0;
        int args = batch != null ? 1 : 0;
        for (ScriptCall call : calls) {
            keys += call.keys().length;
            args += call.args().length;
        }
        Resp.arrayHeader(out, 3 + keys + args);
        Resp.bulk(out, getType().toString());
        Resp.bulk(out, bySha ? script.sha() : script.text());
        Resp.bulk(out, keys);
        for (ScriptCall call : calls) {
            for (String key : call.keys()) {
                Resp.bulk(out, key);
            }
        }
        if (batch != null) {
            Resp.bulkHeader(out, ScriptBatch.PLAN_BYTES * calls.size());
            for (ScriptCall call : calls) {
                out.writeByte(batch.indexOf(call.script()));
                out.writeByte(call.keys().length);
                out.writeByte(call.args().length);
            }
            Resp.bulkEnd(out);
        }
        for (ScriptCall call : calls) {
            for (String arg : call.args()) {
                Resp.bulk(out, arg);
            }
        }
    }

    @Override
    public String toString() {
        return getType() + " " + script.name() + " (" + calls.size() + (calls.size() == 1 ? " call)" : " calls)");
    }
}
