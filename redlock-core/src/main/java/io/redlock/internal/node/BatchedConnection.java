package io.redlock.internal.node;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * One node's connection whose commands are written in batches. What {@link #send} and {@link #eval} queue is
 * written when the {@link Flusher} of the node set says so — once per turn of the I/O event loop, together with
 * everything queued meanwhile, or at once where waiting could stall the caller. Script runs queued one after the
 * other go out as one call of the {@link ScriptBatch}'s script (a lone one as its own EVALSHA), so N lock operations to a node
 * cost one command, one write and one Lua call instead of N. Order on the connection is the order of queueing: the
 * queue is a FIFO, and a command that is not a script ends a batch.
 *
 * <p>Deletes are paced ({@link ScriptCall#paced()}): at most {@link #PACED_WINDOW} of them are on their way at once;
 * more wait here, in order, and go out as replies to the earlier ones come in, while everything queued after them
 * (an extension round, an acquire) is written at once. A burst of releases then holds up an extension by one window
 * of deletes at most, instead of by every delete of the burst. A delete still never overtakes the acquire it undoes:
 * it was queued after it and only ever waits longer.
 *
 * <p>On a Redis Cluster connection, Lettuce routes each command to the master of its first key's slot and follows
 * MOVED and ASK; a batch holds the runs of one slot only ({@link ScriptRuns}), and every command is written at once
 * (a redirected command must not wait in a buffer for the next flush).
 *
 * <p>Thread-safe.
 */
final class BatchedConnection {

    /** Where a node's answer to one queued command goes. */
    interface Sink {
        <T> void settle(BatchedConnection connection, CompletableFuture<T> reply, T value, Throwable failure);
    }

    /** A command that is not a batched script, and the stage its reply settles. */
    private record Raw<T>(Function<RedisClusterAsyncCommands<String, String>, ? extends CompletionStage<T>> command,
            CompletableFuture<T> reply) {
    }

    /** How many paced calls (deletes) may be on their way on one connection at once. */
    static final int PACED_WINDOW = 256;

    private final StatefulConnection<String, String> connection;
    private final RedisClusterAsyncCommands<String, String> async;
    /** A Redis Cluster connection: batches by slot, routing keys on every command. */
    private final boolean cluster;
    private final Flusher flusher;
    private final Sink sink;
    private final ScriptBatch batch;
    /** {@link ScriptCall}s, {@link SetCall}s and {@link Raw} commands not written yet, in order. */
    private final Queue<Object> queued = new ConcurrentLinkedQueue<>();
    /** Paced calls waiting for room in the window, in order; guarded by {@link #queued}'s monitor. */
    private final Queue<ScriptCall> heldPaced = new ArrayDeque<>();
    /** Paced calls written and not answered yet. */
    private final AtomicInteger pacedOnTheirWay = new AtomicInteger();
    /** Whether this connection waits in the flusher already. */
    private final AtomicBoolean flushQueued = new AtomicBoolean();

    BatchedConnection(StatefulConnection<String, String> connection, Flusher flusher, Sink sink, ScriptBatch batch) {
        this.connection = connection;
        this.flusher = flusher;
        this.sink = sink;
        this.batch = batch;
        if (connection instanceof StatefulRedisClusterConnection<String, String> clustered) {
            this.async = clustered.async();
            this.cluster = true;
        } else {
            this.async = ((StatefulRedisConnection<String, String>) connection).async();
            this.cluster = false;
            connection.setAutoFlushCommands(false);
        }
    }

    /** Queues one command; its reply (or the failure to send it) settles {@code reply} through the sink. */
    <T> void send(Function<RedisClusterAsyncCommands<String, String>, ? extends CompletionStage<T>> command,
            CompletableFuture<T> reply) {
        queued.add(new Raw<>(command, reply));
        flushSoon();
    }

    /** Queues one script run; it may share a call with the runs queued next to it. */
    void eval(ScriptCall call) {
        queued.add(call);
        flushSoon();
    }

    /** Queues one {@code SET NX PX}. */
    void setNxPx(SetCall call) {
        queued.add(call);
        flushSoon();
    }

    private void flushSoon() {
        if (flushQueued.compareAndSet(false, true)) {
            flusher.flushSoon(this);
        }
    }

    /**
     * Writes everything queued, runs of scripts as batches, then as many held deletes as the window has room for:
     * what was queued behind held deletes passes them even when replies made room before this flush ran. Clears the
     * flag first: whatever is queued after the clear asks for a flush of its own. Two threads flushing at once take
     * turns, so the order holds.
     */
    void flushNow() {
        flushQueued.set(false);
        synchronized (queued) {
            ScriptRuns runs = new ScriptRuns(cluster);
            Object next;
            while ((next = queued.poll()) != null) {
                if (next instanceof ScriptCall call) {
                    if (call.paced()) {
                        if (!heldPaced.isEmpty() || pacedOnTheirWay.get() >= PACED_WINDOW) {
                            heldPaced.add(call);
                            continue;
                        }
                        pacedOnTheirWay.incrementAndGet();
                    }
                    evalRun(runs.add(call));
                    continue;
                }
                runs.end().forEach(this::evalRun);
                if (next instanceof SetCall set) {
                    dispatch(set.command(cluster), set);
                } else {
                    dispatch((Raw<?>) next);
                }
            }
            do { // the held deletes; then again if calls that failed at once (a closed connection) made room
                releaseHeldPaced(runs);
                runs.end().forEach(this::evalRun);
            } while (!heldPaced.isEmpty() && pacedOnTheirWay.get() < PACED_WINDOW);
            connection.flushCommands();
        }
    }

    /** Caller holds {@link #queued}'s monitor. Adds as many held paced calls as the window has room for. */
    private void releaseHeldPaced(ScriptRuns runs) {
        while (!heldPaced.isEmpty() && pacedOnTheirWay.get() < PACED_WINDOW) {
            pacedOnTheirWay.incrementAndGet();
            evalRun(runs.add(heldPaced.poll()));
        }
    }

    private <T> void dispatch(Raw<T> command) {
        CompletionStage<T> reply;
        try {
            reply = command.command().apply(async);
        } catch (RuntimeException e) {
            sink.settle(this, command.reply(), null, e);
            return;
        }
        reply.whenComplete((value, failure) -> sink.settle(this, command.reply(), value, failure));
    }

    /** Sends {@code run} as one call: a single script call, or a batch; nothing for null. */
    private void evalRun(List<ScriptCall> run) {
        if (run == null) {
            return;
        }
        if (run.size() == 1) {
            eval(run.get(0), true);
        } else {
            evalBatch(run, true);
        }
    }

    /** One script run by EVALSHA, again by EVAL if the node does not know the script (a restarted server). */
    private void eval(ScriptCall call, boolean bySha) {
        AsyncCommand<String, String, Long> reply;
        try {
            reply = dispatch(ScriptCommand.single(call, bySha, cluster,
                    new IntegerOutput<>(ExactUtf8Codec.INSTANCE)));
        } catch (RuntimeException e) {
            answered(call.paced() ? 1 : 0);
            sink.settle(this, call, null, e);
            return;
        }
        reply.whenComplete((value, failure) -> {
            if (bySha && unknownScript(failure)) {
                eval(call, false);
                flushSoon();
            } else {
                answered(call.paced() ? 1 : 0);
                sink.settle(this, call, value, failure);
            }
        });
    }

    /** Many runs in one call of the batch script; each call's reply is its element of the batch's. */
    private void evalBatch(List<ScriptCall> run, boolean bySha) {
        AsyncCommand<String, String, BatchOutput> reply;
        try {
            reply = dispatch(ScriptCommand.batch(batch, run, bySha, cluster, new BatchOutput()));
        } catch (RuntimeException e) {
            answered(paced(run));
            run.forEach(call -> sink.settle(this, call, null, e));
            return;
        }
        reply.whenComplete((replies, failure) -> {
            if (bySha && unknownScript(failure)) {
                evalBatch(run, false);
                flushSoon();
                return;
            }
            answered(paced(run));
            for (int i = 0; i < run.size(); i++) {
                ScriptCall callReply = run.get(i);
                Object element = failure == null ? ScriptBatch.replyOf(replies, run.size(), i) : failure;
                if (element instanceof Long value) {
                    sink.settle(this, callReply, value, null);
                } else {
                    sink.settle(this, callReply, null, (Throwable) element);
                }
            }
        });
    }

    private static int paced(List<ScriptCall> run) {
        int paced = 0;
        for (ScriptCall call : run) {
            if (call.paced()) {
                paced++;
            }
        }
        return paced;
    }

    /** {@code paced} paced calls were answered (or failed): their room in the window goes to the ones waiting. */
    private void answered(int paced) {
        if (paced == 0 || pacedOnTheirWay.addAndGet(-paced) >= PACED_WINDOW || Thread.holdsLock(queued)) {
            return; // no room, or a call that failed while this thread flushes: that flush fills the room at its end
        }
        if (hasHeldPaced()) {
            flushSoon();
        }
    }

    private boolean hasHeldPaced() {
        synchronized (queued) {
            return !heldPaced.isEmpty();
        }
    }

    private <T> void dispatch(Command<String, String, T> command, CompletableFuture<T> reply) {
        AsyncCommand<String, String, T> sent;
        try {
            sent = dispatch(command);
        } catch (RuntimeException e) {
            sink.settle(this, reply, null, e);
            return;
        }
        sent.whenComplete((value, failure) -> sink.settle(this, reply, value, failure));
    }

    private <T> AsyncCommand<String, String, T> dispatch(Command<String, String, T> command) {
        AsyncCommand<String, String, T> sent = new AsyncCommand<>(command);
        connection.dispatch(sent);
        return sent;
    }

    private static boolean unknownScript(Throwable failure) {
        return failure != null && Failures.unwrap(failure) instanceof RedisNoScriptException;
    }

    void closeAsync() {
        connection.closeAsync();
    }

    void close() {
        connection.close();
    }
}
