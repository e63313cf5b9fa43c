package io.redlock.internal.lease;

import io.redlock.LossReason;
import io.redlock.RedlockObserver;
import io.redlock.internal.node.Failures;
import io.redlock.internal.parts.Parts;
import io.redlock.internal.time.Deadline;
import io.redlock.internal.time.TimerWheel;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches one lease on the client's {@link TimerWheel} (no thread and no scheduled task per lease): extends it
 * before it expires when
 * auto-extension is on, and declares it lost — listeners told, the working thread interrupted — when an extension is
 * refused by a majority, when the validity runs out before an extension succeeded, or at once when the maximum hold
 * time is reached (no more extensions then; the keys are left to expire on the nodes).
 *
 * <p>Extension rounds are paced: a new one starts no sooner than {@link #minIntervalNanos} — the per-node timeout,
 * at least {@link #MIN_INTERVAL_FLOOR} — after the previous one ended, whatever the threshold or the failures.
 *
 * <p>{@link #stop()} is race-free: once it returns no extension is started, and no loss is declared.
 */
public final class Watchdog {

    private static final Logger log = LoggerFactory.getLogger(Watchdog.class);
    /** The shortest pause between two extension rounds, whatever the per-node timeout. */
    static final Duration MIN_INTERVAL_FLOOR = Duration.ofMillis(10);

    private final Parts parts;
    private final Extension extension;
    private final KeptAlive keptAlive;
    private final RedlockLease lease;
    private final LossNotice notice;
    /** The shortest pause between the end of an extension round and the start of the next. */
    private final long minIntervalNanos;
    private boolean autoExtend;
    private Duration ttl;
    private long extendWhenRemainingNanos;
    /** When the maximum hold time is reached; never until auto-extension starts. */
    private Deadline holdUntil;

    private boolean stopped;
    private boolean extending;
    private TimerWheel.Timer extendTask;
    private TimerWheel.Timer expiryTask;
    private TimerWheel.Timer maxHoldTask;

    private Watchdog(Parts parts, Extension extension, KeptAlive keptAlive, RedlockLease lease) {
        this.parts = parts;
        this.extension = extension;
        this.keptAlive = keptAlive;
        this.lease = lease;
        this.notice = new LossNotice(lease.resource());
        this.minIntervalNanos = Math.max(parts.config().nodeTimeout().toNanos(), MIN_INTERVAL_FLOOR.toNanos());
        this.holdUntil = Deadline.never(parts.ticker());
    }

    /** The lease's watchdog, created (noticing expiry only) if it has none; null if the lease is released. */
    static Watchdog of(Parts parts, Extension extension, KeptAlive keptAlive, RedlockLease lease) {
        Watchdog existing = lease.watchdog();
        if (existing != null) {
            return existing;
        }
        Watchdog dog = new Watchdog(parts, extension, keptAlive, lease);
        if (!lease.setWatchdog(dog)) {
            return lease.watchdog();
        }
        synchronized (dog) {
            dog.scheduleExpiry();
        }
        return dog;
    }

    /**
     * Starts keeping the lease alive with extensions of {@code ttl} until {@code maxHold} from now. If the Redlock is
     * closing already, the lease is lost ({@link LossReason#CLOSED}) and released at once, as close() does.
     */
    public void autoExtend(Duration extensionTtl, Duration extendWhenRemaining, Duration maxHold) {
        synchronized (this) {
            if (stopped || autoExtend) {
                return;
            }
            autoExtend = true;
            keptAlive.add(lease);
            ttl = extensionTtl;
            extendWhenRemainingNanos = extendWhenRemaining.toNanos();
            holdUntil = Deadline.after(parts.ticker(), maxHold);
            scheduleExtension(0);
            if (holdUntil.bounded()) {
                maxHoldTask = notAfter(this::checkMaxHold, holdUntil.nanosLeft());
            }
        }
        lease.footprint().settleWhenIn(); // a kept-alive lease keeps only a bit per node of its acquire replies
        if (parts.lifecycle().isClosed()) { // close() may have looked at the kept-alive leases before this one joined them
            lose(LossReason.CLOSED);
            lease.releaseAsync();
        }
    }

    /** What a loss this watchdog declares does to the lease's holder. */
    public LossNotice notice() {
        return notice;
    }

    /** No more extensions, no loss: the lease is being released. */
    void stop() {
        Ending ending;
        synchronized (this) {
            ending = end();
        }
        ending.timers().forEach(TimerWheel.Timer::cancel);
        ending.hold().ended(lease.lossReason());
    }

    /** What stopping leaves to do outside the monitor: the timers to cancel, the hold to end. */
    private record Ending(List<TimerWheel.Timer> timers, RedlockObserver.Hold hold) {
    }

    /** Caller holds the monitor. Stops for good: the lease leaves the kept-alive ones. */
    private Ending end() {
        RedlockObserver.Hold hold = !stopped && autoExtend ? keptAlive.remove(lease) : RedlockObserver.Hold.NONE;
        stopped = true;
        return new Ending(Stream.of(extendTask, expiryTask, maxHoldTask).filter(Objects::nonNull).toList(), hold);
    }

    /** Caller holds the monitor. The next extension round, as {@link ExtensionPacing#nextRound} says. */
    private void scheduleExtension(long minDelayNanos) {
        long now = parts.ticker().read();
        long delay = ExtensionPacing.nextRound(now, lease.validUntil(), extendWhenRemainingNanos, minDelayNanos,
                parts.random());
        extendTask = timer(this::extend, delay, true);
    }

    /** Caller holds the monitor. Checks at the current end of validity whether it was extended. */
    private void scheduleExpiry() {
        expiryTask = notAfter(this::checkExpiry, lease.validUntil() - parts.ticker().read());
    }

    private void checkExpiry() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            long left = lease.validUntil() - parts.ticker().read();
            if (left > 0) { // extended meanwhile
                scheduleExpiry();
                return;
            }
        }
        boolean maxHoldReached;
        synchronized (this) {
            maxHoldReached = autoExtend && holdUntil.passed();
        }
        lose(maxHoldReached ? LossReason.MAX_HOLD : LossReason.EXPIRED);
    }

    /** At the maximum hold time: the lease is lost now, though its keys still live until they expire. */
    private void checkMaxHold() {
        synchronized (this) {
            if (stopped) {
                return;
            }
            long early = holdUntil.nanosLeft();
            if (early > 0) { // the scheduler's clock ran ahead of the ticker: check again when it is due
                maxHoldTask = notAfter(this::checkMaxHold, early);
                return;
            }
        }
        log.debug("{}: maximum hold time reached, no more extensions", lease.resource());
        lose(LossReason.MAX_HOLD);
    }

    private void extend() {
        boolean holdOver;
        Duration extensionTtl;
        synchronized (this) {
            if (stopped || extending) {
                return;
            }
            holdOver = holdUntil.passed();
            extending = !holdOver;
            extensionTtl = ttl;
        }
        if (holdOver) {
            lose(LossReason.MAX_HOLD); // never extend past the maximum hold time
            return;
        }
        CompletableFuture<ExtendOutcome> round;
        try {
            round = extension.extend(lease, extensionTtl);
        } catch (RuntimeException closing) {
            synchronized (this) {
                extending = false;
            }
            return; // the Redlock is closing: the lease is left to expire
        }
        round.whenComplete((outcome, failure) -> {
            ExtendOutcome result = failure == null ? outcome : ExtendOutcome.FAILED;
            if (failure != null) {
                log.debug("{}: extension failed: {}", lease.resource(), Failures.unwrap(failure).toString());
            }
            if (result == ExtendOutcome.REFUSED) {
                synchronized (this) {
                    extending = false;
                }
                lose(LossReason.EXTENSION_REFUSED);
                return;
            }
            synchronized (this) {
                extending = false;
                if (stopped) {
                    return;
                }
                if (result == ExtendOutcome.EXTENDED) {
                    scheduleExtension(minIntervalNanos);
                } else {
                    // nodes down or slow: try again while validity lasts; the expiry check ends it otherwise
                    long left = lease.validUntil() - parts.ticker().read();
                    scheduleExtension(ExtensionPacing.afterFailedRound(minIntervalNanos, extendWhenRemainingNanos,
                            left));
                }
            }
        });
    }

    /**
     * Declares the loss: the lease turns invalid, every listener is told, then the worker is interrupted (if it is
     * still working under this lease). No effect once stopped or lost.
     */
    void lose(LossReason reason) {
        lose(reason, null);
    }

    /**
     * {@link #lose(LossReason)}, but {@code closer} — the thread closing the Redlock, which knows — is not interrupted
     * if it holds the lease: its own close must not be cut short.
     */
    void loseOnClose(Thread closer) {
        lose(LossReason.CLOSED, closer);
    }

    private void lose(LossReason reason, Thread spared) {
        Ending ending;
        boolean lost;
        synchronized (this) {
            if (stopped) {
                return;
            }
            ending = end();
            lost = lease.markLost(reason);
            if (lost) {
                notice.declared();
            }
        }
        ending.timers().forEach(TimerWheel.Timer::cancel);
        ending.hold().ended(lease.lossReason()); // not lost here: released (or lost) meanwhile
        if (!lost) {
            return;
        }
        try {
            if (reason == LossReason.CLOSED) {
                log.info("lost the lock on '{}': {}", lease.resource(), reason.description());
            } else {
                log.warn("lost the lock on '{}': {}", lease.resource(), reason.description());
            }
            lease.tellListeners(reason);
            parts.events().lost(lease, reason);
        } finally {
            notice.toldAll();
        }
        notice.interruptWorker(spared);
    }

    /** Caller holds the monitor. A check due at the latest {@code delayNanos} from now (it reads the time again). */
    private TimerWheel.Timer notAfter(Runnable task, long delayNanos) {
        return timer(task, delayNanos, false);
    }

    /**
     * Caller holds the monitor. A timer on the wheel, up to a tick late if {@code late}, else up to a tick early; null
     * once the Redlock is closing (its leases are then left to expire).
     */
    private TimerWheel.Timer timer(Runnable task, long delayNanos, boolean late) {
        try {
            return late ? parts.timers().notBefore(task, delayNanos) : parts.timers().notAfter(task, delayNanos);
        } catch (RuntimeException closing) {
            stopped = true;
            return null;
        }
    }
}
