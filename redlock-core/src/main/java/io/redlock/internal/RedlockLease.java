package io.redlock.internal;

import io.redlock.Lease;
import io.redlock.RedlockException;
import io.redlock.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** The {@link Lease} handed out by the {@link Engine}. Thread-safe; state changes under its monitor. */
final class RedlockLease implements Lease {

    private final LeaseOps ops;
    private final Ticker ticker;
    private final String resource;
    private final String key;
    private final String value;

    private final List<? extends CompletableFuture<?>> acquireReplies;
    private final long token;

    private volatile long validUntil;
    private volatile CompletableFuture<Void> release;

    RedlockLease(LeaseOps ops, Ticker ticker, String resource, String key, String value, long validUntil,
            List<? extends CompletableFuture<?>> acquireReplies, long token) {
        this.acquireReplies = acquireReplies;
        this.token = token;
        this.ops = ops;
        this.ticker = ticker;
        this.resource = resource;
        this.key = key;
        this.value = value;
        this.validUntil = validUntil;
    }

    @Override
    public String resource() {
        return resource;
    }

    @Override
    public String value() {
        return value;
    }

    String key() {
        return key;
    }

    /** The acquisition's per-node replies; a release to a node is sent only after that node's reply. */
    List<? extends CompletableFuture<?>> acquireReplies() {
        return acquireReplies;
    }

    @Override
    public long fencingToken() {
        if (token == Engine.NO_TOKEN) {
            throw new RedlockException("this lease has no fencing token: the Redlock was built with fencing(false)");
        }
        return token;
    }

    @Override
    public long validUntil() {
        return validUntil;
    }

    @Override
    public Duration remainingValidity() {
        if (release != null) {
            return Duration.ZERO;
        }
        long left = validUntil - ticker.read();
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    @Override
    public boolean isValid() {
        return release == null && validUntil - ticker.read() > 0;
    }

    boolean isReleased() {
        return release != null;
    }

    @Override
    public CompletionStage<Boolean> extendAsync(Duration ttl) {
        return ops.extend(this, ttl);
    }

    /** After a successful extension: the keys now live until the new deadline. No effect once released. */
    synchronized void renew(long newValidUntil) {
        if (release == null) {
            validUntil = newValidUntil;
        }
    }

    /** After a failed extension: nodes that applied it may now expire sooner, so never extend, only shorten. */
    synchronized void shortenTo(long deadline) {
        if (deadline - validUntil < 0) {
            validUntil = deadline;
        }
    }

    @Override
    public CompletionStage<Void> releaseAsync() {
        CompletableFuture<Void> started;
        synchronized (this) {
            if (release == null) {
                release = new CompletableFuture<>();
                started = release;
            } else {
                started = null;
            }
        }
        if (started != null) {
            ops.release(this).whenComplete((v, e) -> {
                if (e == null) {
                    started.complete(null);
                } else {
                    started.completeExceptionally(e);
                }
            });
        }
        return release.copy();
    }

    @Override
    public String toString() {
        return "Lease[" + resource + ", value " + value.substring(0, 6) + "…, "
                + (token == Engine.NO_TOKEN ? "" : "token " + token + ", ")
                + (isValid() ? "valid for " + remainingValidity().toMillis() + " ms" : "not valid") + "]";
    }
}
