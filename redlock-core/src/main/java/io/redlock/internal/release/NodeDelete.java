package io.redlock.internal.release;

import io.lettuce.core.RedisCommandExecutionException;
import io.redlock.NodeFailure;
import io.redlock.internal.node.Failures;
import io.redlock.internal.node.NodeClient;
import io.redlock.internal.node.NodeUnavailableException;
import io.redlock.internal.node.Script;
import io.redlock.internal.node.TalliedReply;
import io.redlock.internal.protocol.HeldKeys;
import io.redlock.internal.protocol.Scripts;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;

/**
 * The compare-and-delete of one lease value on one node (SPEC R5, R7), never overtaking the write it undoes: sent at
 * once while the acquire is still on its way on the node's current connection (a connection delivers in order, so
 * the delete reaches the node after the acquire, and the next acquisition of the resource finds the key gone there),
 * else only once that node's acquire reply is in (after a reconnect); then sent again until it is known to have
 * landed — or until the key would have expired anyway, counted on the ticker from the write (and for at least
 * {@link #MIN_REPEATING}, for keys that outlive their TTL on a node whose clock went back).
 *
 * <p>Known to have landed: the node answered 1 (deleted), or answered 0 after it had answered the acquire (the key
 * was gone already). A 0 is not final when the acquire's reply was lost (a timeout, a dropped connection): the write
 * may still be sitting in a stalled node's buffers and land later, so the delete is repeated. A node that answered
 * "refused" is sent the delete too (SPEC R7): a command in flight when its connection broke is sent again after the
 * reconnect, and the second copy is refused because the first one set our value. Only a node that was never sent the
 * acquire (it was not connected) needs no delete. Repeats back off from {@link #FIRST_PAUSE} to {@link #LONGEST_PAUSE}
 * on the scheduler; closing the client ends them ({@link Releases#stop}).
 */
public final class NodeDelete implements TalliedReply.Listener<Long> {

    /** The pause before the first repeat. */
    static final Duration FIRST_PAUSE = Duration.ofMillis(20);
    /** The longest pause between two repeats: a node that resumes is cleaned up within about this much. */
    static final Duration LONGEST_PAUSE = Duration.ofMillis(250);
    /** How long repeats go on at least, from the first send, even for a key whose TTL has run out. */
    static final Duration MIN_REPEATING = Duration.ofSeconds(5);

    private final Releases releases;
    private final NodeClient node;
    private final Script script;
    private final String[] keys;
    private final String[] args;
    private final CompletableFuture<?> acquired;
    /** When repeats stop: when the key would have expired anyway, or {@link #MIN_REPEATING} after the first send. */
    private long repeatUntil;
    /** The first reply (or failure) of the delete: what a release round counts. */
    private final CompletableFuture<Long> firstReply = new TalliedReply<>();
    /** Told once, when no more repeats will be sent. */
    private final DeleteGroup group;
    private boolean settled;
    private long pauseNanos = FIRST_PAUSE.toNanos();

    private NodeDelete(Releases releases, NodeClient node, CompletableFuture<?> acquired, Script script,
            String[] keys, String[] args, long expiresAt, DeleteGroup group) {
        this.releases = releases;
        this.group = group;
        this.node = node;
        this.script = script;
        this.acquired = acquired;
        this.keys = keys;
        this.args = args;
        this.repeatUntil = expiresAt;
    }

    /**
     * Starts deleting on {@code node} after its acquire reply {@code acquired}.
     *
     * @param script    the release script of the lease's keys ({@link HeldKeys#releaseScript()})
     * @param keys      its KEYS: the lock key and its waiter queue (see {@link Scripts#RELEASE})
     * @param args      its ARGV ({@link Scripts.Release})
     * @param expiresAt the ticker reading at which the key would have expired anyway
     * @param group     the release's deletes, told when this one is done with
     */
    static NodeDelete after(Releases releases, NodeClient node, CompletableFuture<?> acquired, Script script,
            String[] keys, String[] args, long expiresAt, DeleteGroup group) {
        NodeDelete delete = new NodeDelete(releases, node, acquired, script, keys, args, expiresAt, group);
        if (!acquired.isDone() && node.sameConnection(acquired)) {
            delete.sendNow(); // the acquire is still on its way on this connection: the delete goes right behind it
        } else {
            acquired.whenComplete(delete::start); // at once in the usual case: the reply is in
        }
        return delete;
    }

    /** The first reply of the delete (1 deleted, 0 not held there), or its failure. */
    CompletableFuture<Long> firstReply() {
        return firstReply;
    }

    private void start(Object acquireReply, Throwable failure) {
        if (!mayHold(acquireReply, failure)) {
            finish(0L); // never sent: it never held our value
            return;
        }
        sendNow();
    }

    /**
     * Whether a node whose acquire ended so may hold our value: unless the acquire was never sent, it may, whatever
     * it answered (a refusal can be the answer to a copy sent again after a reconnect, the first copy having set it).
     */
    public static boolean mayHold(Object acquireReply, Throwable failure) {
        return failure == null || !(Failures.unwrap(failure) instanceof NodeUnavailableException);
    }

    /** The first send: repeats go on for at least {@link #MIN_REPEATING} from now. */
    private void sendNow() {
        long minimum = releases.nodes().ticker().read() + MIN_REPEATING.toNanos();
        if (minimum - repeatUntil > 0) {
            repeatUntil = minimum;
        }
        send();
    }

    private void send() {
        CompletionStage<Long> reply = node.evalPaced(script, keys, args);
        if (!(reply instanceof TalliedReply<Long> heard && heard.listen(this))) {
            reply.whenComplete(this::answered); // failed at once: no connection
        }
    }

    @Override
    public void heard(TalliedReply<? extends Long> reply, Long value, Throwable failure) {
        answered(value, failure);
    }

    private void answered(Long reply, Throwable failure) {
        if (failure == null) {
            firstReply.complete(reply);
            if (reply == 1L || writeCertain()) {
                settle();
                return;
            }
        } else {
            firstReply.completeExceptionally(failure);
            if (Failures.kind(failure) == NodeFailure.Kind.ERROR) {
                settle(); // an error retrying cannot fix (permissions, say)
                return;
            }
        }
        repeatLater();
    }

    /** Sends the delete again after a pause, unless the key will have expired by then or the client is closing. */
    private void repeatLater() {
        long now = releases.nodes().ticker().read();
        if (releases.stopped() || now + pauseNanos - repeatUntil >= 0) {
            settle();
            return;
        }
        long pause = pauseNanos;
        pauseNanos = Math.min(LONGEST_PAUSE.toNanos(), pauseNanos * 2);
        try {
            releases.nodes().scheduler().schedule(this::send, pause);
        } catch (RejectedExecutionException closed) {
            settle();
        }
    }

    /**
     * Whether the acquire's write is done with on the node: it answered, or answered with an error (it ran the
     * acquire; whatever it did is done). A lost reply means it may not be. A delete answered on the acquire's own
     * connection comes after the acquire's answer, so this is known by then.
     */
    private boolean writeCertain() {
        if (!acquired.isDone()) {
            return false;
        }
        if (!acquired.isCompletedExceptionally()) {
            return true;
        }
        Throwable failure = acquired.handle((reply, e) -> e).join();
        return Failures.unwrap(failure) instanceof RedisCommandExecutionException;
    }

    private void finish(long reply) {
        firstReply.complete(reply);
        settle();
    }

    /** No more repeats: the group hears it, once. */
    private void settle() {
        if (!settled) {
            settled = true;
            group.settledOne();
        }
    }
}
