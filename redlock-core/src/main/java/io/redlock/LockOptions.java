package io.redlock;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@code withLock} and the {@link java.util.concurrent.locks.Lock} adapter hold a lock: the TTL of each
 * acquisition and extension, how long to wait for the lock, the longest time to keep extending it (SPEC R8), and
 * when to extend. Immutable.
 *
 * <p>Defaults: TTL {@value #DEFAULT_TTL_SECONDS} s, wait {@value #DEFAULT_MAX_WAIT_SECONDS} s, maximum hold
 * {@value #DEFAULT_MAX_HOLD_MINUTES} minutes, extend when a third of the TTL remains.
 */
public final class LockOptions {

    public static final long DEFAULT_TTL_SECONDS = 30;
    public static final long DEFAULT_MAX_WAIT_SECONDS = 30;
    public static final long DEFAULT_MAX_HOLD_MINUTES = 10;

    private static final LockOptions DEFAULTS = builder().build();

    private final Duration ttl;
    private final Duration maxWait;
    private final Duration maxHold;
    private final Duration extendWhenRemaining;

    private LockOptions(Builder builder) {
        this.ttl = builder.ttl;
        this.maxWait = builder.maxWait;
        this.maxHold = builder.maxHold;
        this.extendWhenRemaining = builder.extendWhenRemaining != null ? builder.extendWhenRemaining
                : ttl.dividedBy(3);
    }

    public static LockOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from these options. */
    public Builder toBuilder() {
        Builder builder = new Builder().ttl(ttl).maxWait(maxWait).maxHold(maxHold);
        builder.extendWhenRemaining = extendWhenRemaining;
        return builder;
    }

    public Duration ttl() {
        return ttl;
    }

    public Duration maxWait() {
        return maxWait;
    }

    public Duration maxHold() {
        return maxHold;
    }

    /** An extension starts when the remaining validity drops to this. */
    public Duration extendWhenRemaining() {
        return extendWhenRemaining;
    }

    @Override
    public String toString() {
        return "LockOptions[ttl=" + ttl + ", maxWait=" + maxWait + ", maxHold=" + maxHold + ", extendWhenRemaining="
                + extendWhenRemaining + "]";
    }

    /** Collects options; {@link #build()} checks them and names a bad value. */
    public static final class Builder {
        private Duration ttl = Duration.ofSeconds(DEFAULT_TTL_SECONDS);
        private Duration maxWait = Duration.ofSeconds(DEFAULT_MAX_WAIT_SECONDS);
        private Duration maxHold = Duration.ofMinutes(DEFAULT_MAX_HOLD_MINUTES);
        private Duration extendWhenRemaining;

        private Builder() {
        }

        public Builder ttl(Duration ttl) {
            this.ttl = ttl;
            return this;
        }

        public Builder maxWait(Duration maxWait) {
            this.maxWait = maxWait;
            return this;
        }

        public Builder maxHold(Duration maxHold) {
            this.maxHold = maxHold;
            return this;
        }

        /** Default: a third of the TTL. */
        public Builder extendWhenRemaining(Duration remaining) {
            this.extendWhenRemaining = remaining;
            return this;
        }

        public LockOptions build() {
            positive("ttl", ttl);
            Objects.requireNonNull(maxWait, "maxWait");
            if (maxWait.isNegative()) {
                throw new RedlockConfigException("maxWait must not be negative, was " + maxWait);
            }
            positive("maxHold", maxHold);
            if (extendWhenRemaining != null) {
                positive("extendWhenRemaining", extendWhenRemaining);
                if (extendWhenRemaining.compareTo(ttl) >= 0) {
                    throw new RedlockConfigException("extendWhenRemaining must be less than the ttl " + ttl + ", was "
                            + extendWhenRemaining);
                }
            }
            return new LockOptions(this);
        }

        private static void positive(String name, Duration value) {
            if (value == null || value.isNegative() || value.isZero()) {
                throw new RedlockConfigException(name + " must be positive, was " + value);
            }
        }
    }
}
