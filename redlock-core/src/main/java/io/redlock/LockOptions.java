package io.redlock;

import io.redlock.internal.parts.ConfigCheck;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * How {@code withLock} and the {@link java.util.concurrent.locks.Lock} adapter hold a lock: the TTL of each
 * acquisition and extension, how long to wait for the lock, the longest time to keep extending it (SPEC R8), and
 * when to extend, and the shortest time the lock stays taken even when the work ends sooner. Immutable.
 *
 * <p>A TTL or wait left unset is the {@link Redlock}'s ({@link RedlockBuilder#defaultTtl(Duration)},
 * {@link RedlockBuilder#defaultMaxWait(Duration)}); {@link #defaults()} leaves both unset. The maximum hold time
 * defaults to {@link #DEFAULT_MAX_HOLD}; an extension starts when a third of the TTL remains unless
 * {@link Builder#extendWhenRemaining(Duration)} says otherwise.
 */
public final class LockOptions {

    /** The longest time a lease is kept alive when the options do not say: 10 minutes. */
    public static final Duration DEFAULT_MAX_HOLD = Duration.ofMinutes(10);

    private static final LockOptions DEFAULTS = builder().build();

    private final Duration ttl;
    private final Duration maxWait;
    private final Duration maxHold;
    private final Duration extendWhenRemaining;
    private final Duration minHold;

    private LockOptions(Builder builder) {
        this.ttl = builder.ttl;
        this.maxWait = builder.maxWait;
        this.maxHold = builder.maxHold;
        this.extendWhenRemaining = builder.extendWhenRemaining;
        this.minHold = builder.minHold;
    }

    /** Everything from the {@link Redlock}: its default TTL and wait, {@link #DEFAULT_MAX_HOLD}. */
    public static LockOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options (unset values stay unset). */
    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.ttl = ttl;
        builder.maxWait = maxWait;
        builder.maxHold = maxHold;
        builder.extendWhenRemaining = extendWhenRemaining;
        builder.minHold = minHold;
        return builder;
    }

    /** The TTL of each acquisition and extension; empty for the Redlock's default TTL. */
    public Optional<Duration> ttl() {
        return Optional.ofNullable(ttl);
    }

    /** How long to wait for the lock; empty for the Redlock's default wait. */
    public Optional<Duration> maxWait() {
        return Optional.ofNullable(maxWait);
    }

    /** The longest time the lease is kept alive. */
    public Duration maxHold() {
        return maxHold;
    }

    /** An extension starts when the remaining validity drops to this; empty for a third of the TTL. */
    public Optional<Duration> extendWhenRemaining() {
        return Optional.ofNullable(extendWhenRemaining);
    }

    /**
     * The shortest time the lock stays taken, from its acquisition, even when the work ends sooner (ShedLock's
     * {@code lockAtLeastFor}, for jobs on machines whose clocks differ): see {@link Lease#releaseAfter(Duration)}.
     * Zero (the default): released when the work ends.
     */
    public Duration minHold() {
        return minHold;
    }

    @Override
    public String toString() {
        return "LockOptions[ttl=" + (ttl == null ? "default" : ttl) + ", maxWait="
                + (maxWait == null ? "default" : maxWait) + ", maxHold=" + maxHold + ", extendWhenRemaining="
                + (extendWhenRemaining == null ? "ttl/3" : extendWhenRemaining) + ", minHold=" + minHold + "]";
    }

    /** Collects options; {@link #build()} checks them and names a bad value. */
    public static final class Builder {
        private Duration ttl;
        private Duration maxWait;
        private Duration maxHold = DEFAULT_MAX_HOLD;
        private Duration extendWhenRemaining;
        private Duration minHold = Duration.ZERO;

        private Builder() {
        }

        /** Default: the Redlock's default TTL. */
        public Builder ttl(Duration ttl) {
            this.ttl = ttl;
            return this;
        }

        /** Default: the Redlock's default wait. */
        public Builder maxWait(Duration maxWait) {
            this.maxWait = maxWait;
            return this;
        }

        /** Default: {@link #DEFAULT_MAX_HOLD}. */
        public Builder maxHold(Duration maxHold) {
            this.maxHold = maxHold;
            return this;
        }

        /**
         * Default: a third of the TTL. The largest accepted value depends on the Redlock's drift factor and per-node
         * timeout; a larger one is refused where the options are used.
         */
        public Builder extendWhenRemaining(Duration remaining) {
            this.extendWhenRemaining = remaining;
            return this;
        }

        /** Default: zero, released when the work ends. At most the maximum hold time. */
        public Builder minHold(Duration minHold) {
            this.minHold = minHold;
            return this;
        }

        public LockOptions build() {
            if (ttl != null) {
                ConfigCheck.positive("ttl", ttl);
            }
            if (maxWait != null) {
                ConfigCheck.maxWait("maxWait", maxWait);
            }
            ConfigCheck.positive("maxHold", maxHold);
            ConfigCheck.minHold(minHold, maxHold);
            if (extendWhenRemaining != null) {
                ConfigCheck.positive("extendWhenRemaining", extendWhenRemaining);
                if (ttl != null && extendWhenRemaining.compareTo(ttl) >= 0) {
                    throw new RedlockConfigException(List.of("extendWhenRemaining", "ttl"), "extendWhenRemaining must be less than the ttl " + ttl + ", was "
                            + extendWhenRemaining);
                }
            }
            return new LockOptions(this);
        }
    }
}
