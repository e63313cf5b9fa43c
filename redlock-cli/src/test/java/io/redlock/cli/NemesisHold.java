package io.redlock.cli;

import io.redlock.fencing.Fence;
import io.redlock.fencing.FencedRedis;
import io.redlock.fencing.FencedResult;
import io.redlock.testkit.history.History;
import io.redlock.testkit.history.Op;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How a client of a randomized run records one hold in its resource's history: the attempt (granted with the
 * lease's validity deadline, refused, or unknown when it threw), the validity the library promised as the hold goes on
 * (a kept-alive lease's grows with each extension: it is sampled before every write and at the end), the fenced
 * read-modify-write of the resource's counter, and the release. Validity is always read from the lease, so the history
 * holds each hold to what the library promised, never to what the client did after.
 */
final class NemesisHold {

    private final History history;
    private final String process;
    private final FencedRedis fenced;
    private final String value;
    private final long token;
    private final LongSupplier validUntil;

    private NemesisHold(History history, String process, FencedRedis fenced, String value, long token,
            LongSupplier validUntil) {
        this.history = history;
        this.process = process;
        this.fenced = fenced;
        this.value = value;
        this.token = token;
        this.validUntil = validUntil;
    }

    /** The call of an attempt, before it is made. */
    static History.Call attempt(History history, String process) {
        return history.invoke(process, Op.ACQUIRE, null, -1, null);
    }

    /**
     * The hold {@code attempt} (in {@code history}) was granted: a lease of {@code value} and {@code token} (-1: unfenced), whose validity
     * deadline {@code validUntil} reads.
     */
    static NemesisHold granted(History history, History.Call attempt, FencedRedis fenced, String value, long token,
            LongSupplier validUntil) {
        attempt.okAcquired(value, token, validUntil.getAsLong());
        return new NemesisHold(history, attempt.event().process(), fenced, value, token, validUntil);
    }

    /** Records the validity promised now. */
    void stillValid() {
        history.invoke(process, Op.EXTEND, value, token, null).okValid(validUntil.getAsLong());
    }

    /**
     * Reads the counter of {@code resource} with this hold's fence, waits {@code work}, and writes it plus one with
     * the fence (unless the read was refused). A refused call is recorded as failed; a write that threw as unknown.
     */
    void readModifyWrite(String resource, Duration work) {
        Fence fence = new Fence(token, value);
        History.Call read = history.invoke(process, Op.READ, value, token, null);
        FencedResult<String> got = storage(read, () -> fenced.get(NemesisLog.counter(resource), fence));
        if (!got.accepted()) {
            read.fail("stale read: token " + got.highestToken() + " seen");
            return;
        }
        long counter = got.value() == null ? 0 : Long.parseLong(got.value());
        read.okRead(counter);
        NemesisClient.pause(work);
        stillValid();
        History.Call write = history.invoke(process, Op.WRITE, value, token, counter + 1);
        FencedResult<Void> put = storage(write,
                () -> fenced.set(NemesisLog.counter(resource), Long.toString(counter + 1), fence));
        if (put.accepted()) {
            write.ok();
        } else {
            write.fail("stale write: token " + put.highestToken() + " seen");
        }
    }

    /** Records the release, then makes it; a release that threw was begun, so the hold ended either way. */
    void release(Runnable release) {
        stillValid();
        History.Call call = history.invoke(process, Op.RELEASE, value, token, null);
        release.run();
        call.ok();
    }

    /** A storage call (the storage is never faulted); one that threw is recorded before it propagates. */
    private static <T> T storage(History.Call call, Supplier<T> operation) {
        try {
            return operation.get();
        } catch (RuntimeException e) {
            if (call.event().op() == Op.WRITE) {
                call.unknown("maybe written: " + e);
            } else {
                call.fail("read failed: " + e);
            }
            throw e;
        }
    }
}
