package io.redlock.internal.locks;

import io.redlock.LockOptions;
import io.redlock.RedlockConfig;
import io.redlock.internal.parts.ConfigCheck;
import io.redlock.internal.parts.Validity;
import java.time.Duration;

/**
 * {@link LockOptions} with every value the options leave unset taken from the {@link RedlockConfig}, and checked
 * against it: the TTL above the per-node timeout, and the extension threshold at most the validity left right after
 * a slowest extension round ({@code ttl - drift - per-node timeout}), so extensions never follow each other without
 * pause. An unset threshold is a third of the TTL, capped there.
 */
public record LockPlan(Duration ttl, Duration maxWait, Duration maxHold, Duration extendWhenRemaining, Duration minHold) {

    /** The options as a Redlock with {@code config} uses them. */
    public static LockPlan of(LockOptions options, RedlockConfig config) {
        Duration ttl = options.ttl().orElse(config.defaultTtl());
        ConfigCheck.ttlLeavesValidity("ttl", ttl, config.nodeTimeout(), config.driftFactor());
        Duration maxWait = options.maxWait().orElse(config.defaultMaxWait());
        Duration latest = Duration.ofNanos(Validity.afterSlowestRoundNanos(ttl.toNanos(), config.driftFactor(),
                config.nodeTimeout().toNanos()));
        Duration third = ttl.dividedBy(3);
        Duration extendWhenRemaining = options.extendWhenRemaining()
                .orElse(third.compareTo(latest) <= 0 || latest.isNegative() ? third : latest);
        ConfigCheck.extendWhenRemaining(extendWhenRemaining, ttl, latest);
        return new LockPlan(ttl, maxWait, options.maxHold(), extendWhenRemaining, options.minHold());
    }
}
