package io.redlock.internal.lease;

import io.redlock.Lease;
import io.redlock.LeaseListener;
import io.redlock.LossReason;
import io.redlock.RedlockException;
import io.redlock.Ticker;
import io.redlock.internal.parts.Listeners;
import io.redlock.internal.protocol.HeldKeys;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/** The {@link Lease} handed out by an acquisition. Thread-safe; state changes under its monitor. */
public final class RedlockLease implements Lease {

    /** The token of a lease taken without fencing. */
    public static final long NO_TOKEN = -1;
    /** The token of a lease handle made from a value acquired elsewhere. */
    static final long UNKNOWN_TOKEN = -2;

    private final LeaseOps ops;
    private final Ticker ticker;
    private final String resource;
    private final HeldKeys keys;
    private final String value;

    private final Footprint footprint;
    private final long token;

    private volatile long validUntil;
    /** Whether an extension ever moved {@link #validUntil}. */
    private boolean renewed;
    private volatile CompletableFuture<Void> release;
    private volatile LossReason lost;
    private boolean pendingTell;
    private final LossListeners listeners = new LossListeners();
    private Watchdog watchdog;
    private final long grantedAt;

    RedlockLease(LeaseOps ops, Ticker ticker, String resource, HeldKeys keys, String value, long validUntil,
            Footprint footprint, long token) {
        this.footprint = footprint;
        this.token = token;
        this.ops = ops;
        this.ticker = ticker;
        this.resource = resource;
        this.keys = keys;
        this.value = value;
        this.validUntil = validUntil;
        this.grantedAt = ticker.read();
    }

    /** The ticker reading when the lease was granted: where a minimum hold time counts from. */
    public long grantedAt() {
        return grantedAt;
    }

    @Override
    public String resource() {
        return resource;
    }

    @Override
    public String value() {
        return value;
    }

    /** Where its value may be on the nodes, as a release needs to know it. */
    Footprint footprint() {
        return footprint;
    }

    /** The names of this lease's keys. */
    HeldKeys keys() {
        return keys;
    }

    @Override
    public long fencingToken() {
        if (token == NO_TOKEN) {
            throw new RedlockException("this lease has no fencing token: the Redlock was built with fencing(false)");
        }
        if (token == UNKNOWN_TOKEN) {
            throw new RedlockException("this lease was taken by another process; its token is the one it was given");
        }
        return token;
    }

    /** True for a handle on a lease acquired elsewhere: its validity is only known after an extension. */
    boolean isAdopted() {
        return token == UNKNOWN_TOKEN;
    }

    @Override
    public long validUntil() {
        return validUntil;
    }

    @Override
    public Duration remainingValidity() {
        if (release != null || lost != null) {
            return Duration.ZERO;
        }
        long left = validUntil - ticker.read();
        return left > 0 ? Duration.ofNanos(left) : Duration.ZERO;
    }

    @Override
    public boolean isValid() {
        return release == null && lost == null && validUntil - ticker.read() > 0;
    }

    @Override
    public Optional<LossReason> lossReason() {
        return Optional.ofNullable(lost);
    }

    @Override
    public void onLost(LeaseListener listener) {
        Objects.requireNonNull(listener, "listener");
        listeners.add(listener);
        LossReason reason = lost;
        if (reason != null && listeners.remove(listener)) {
            Listeners.notify(listener, this, reason);
            return;
        }
        ops.watch(this);
    }

    /** Marks the lease lost, unless it was released or lost already; {@link #isValid()} is false from now on. */
    synchronized boolean markLost(LossReason reason) {
        if (release != null || lost != null) {
            return false;
        }
        lost = reason;
        return true;
    }

    /**
     * Before a release by the holder: if the validity already ran out unnoticed (the watchdog's check not yet run),
     * that is a loss too. Returns the loss, if any; a loss found here still has to be told.
     */
    public synchronized Optional<LossReason> lossBeforeRelease() {
        if (lost == null && release == null && validUntil - ticker.read() <= 0) {
            lost = LossReason.EXPIRED;
            pendingTell = true;
        }
        return Optional.ofNullable(lost);
    }

    /** True once, if {@link #lossBeforeRelease()} found a loss nobody was told about yet. */
    public synchronized boolean takePendingTell() {
        boolean tell = pendingTell;
        pendingTell = false;
        return tell;
    }

    /** Tells each registered listener once. */
    public void tellListeners(LossReason reason) {
        listeners.tell(this, reason);
    }

    /** The watchdog of this lease, made (noticing expiry only) if it has none; null once the lease is released. */
    public Watchdog watch() {
        return ops.watch(this);
    }

    /** The watchdog of this lease, set once; null while it has none. */
    synchronized Watchdog watchdog() {
        return watchdog;
    }

    synchronized boolean setWatchdog(Watchdog dog) {
        if (watchdog != null || release != null) {
            return false;
        }
        watchdog = dog;
        return true;
    }

    boolean isReleased() {
        return release != null;
    }

    @Override
    public CompletionStage<Boolean> extendAsync(Duration ttl) {
        return ops.extend(this, ttl);
    }

    /**
     * After a successful extension: the keys now live until the new deadline. Returns false and changes nothing once
     * the lease was released or lost, or its validity ran out: a lease that stopped being valid never becomes valid
     * again, however late a confirmation arrives. An adopted handle, whose validity is unknown until its first
     * extension, takes that one.
     */
    synchronized boolean renew(long newValidUntil) {
        boolean ranOut = validUntil - ticker.read() <= 0 && !(isAdopted() && !renewed);
        if (release != null || lost != null || ranOut) {
            return false;
        }
        validUntil = newValidUntil;
        renewed = true;
        return true;
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
        Watchdog dog;
        synchronized (this) {
            if (release == null) {
                release = new CompletableFuture<>();
                started = release;
            } else {
                started = null;
            }
            dog = watchdog;
        }
        if (started != null) {
            listeners.clear();
            if (dog != null) {
                dog.stop(); // before the release is sent: no extension can follow it
            }
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

    /**
     * Keeps the lock taken for {@code keep} more, then lets it go: the keys are re-expired to {@code keep} on every
     * node (whole milliseconds, rounded up) and left to expire, never deleted, so no node frees the lock sooner,
     * however short {@code keep} and whatever the nodes answer. Zero or less, or a lease already released or lost: a
     * release.
     */
    @Override
    public CompletionStage<Void> releaseAfterAsync(Duration keep) {
        Objects.requireNonNull(keep, "keep");
        if (keep.isNegative() || keep.isZero()) {
            return releaseAsync();
        }
        Duration whole = Duration.ofMillis(TimeUnit.NANOSECONDS.toMillis(keep.toNanos() + 999_999));
        boolean held;
        Watchdog dog;
        synchronized (this) {
            held = release == null && lost == null;
            dog = watchdog;
        }
        if (!held) {
            return releaseAsync();
        }
        if (dog != null) {
            dog.stop(); // no extension with the full TTL may follow the re-expiry
        }
        return keep(whole);
    }

    /** Re-expires the keys to {@code keep}; then the lease counts as released, its keys left to expire. */
    private CompletionStage<Void> keep(Duration keep) {
        CompletableFuture<Void> kept;
        try {
            kept = ops.reExpire(this, keep);
        } catch (RuntimeException e) { // closed meanwhile: a release says so
            return releaseAsync();
        }
        return kept.exceptionally(failure -> null).thenCompose(done -> {
            synchronized (this) {
                if (release == null) {
                    release = CompletableFuture.completedFuture(null);
                }
            }
            listeners.clear();
            return release.copy();
        });
    }

    @Override
    public String toString() {
        return "Lease[" + resource + ", value " + value.substring(0, 6) + "…, "
                + (token == NO_TOKEN ? "" : "token " + token + ", ")
                + (lost != null ? "lost: " + lost.description()
                        : isValid() ? "valid for " + remainingValidity().toMillis() + " ms" : "not valid") + "]";
    }
}
