package io.redlock.spring;

import io.redlock.LockOptions;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * One {@link Locked @Locked} method, checked and parsed once: what it locks, the durations given on the annotation
 * (null where the defaults apply), how its result is awaited and what a skipped call returns.
 */
record LockedOperation(Method method, String description, LockedTarget target, Duration ttl,
        Duration maxWait, Duration maxHold, Duration lockAtLeastFor, OnBusy onBusy, OnUnavailable onUnavailable,
        LockedKind kind, Supplier<Object> skipped) {

    /** The defaults with this annotation's durations applied on top; what neither sets is the Redlock's. */
    LockOptions options(LockOptions defaults) {
        if (ttl == null && maxWait == null && maxHold == null && lockAtLeastFor == null) {
            return defaults;
        }
        LockOptions.Builder builder = LockOptions.builder().maxHold(maxHold != null ? maxHold : defaults.maxHold())
                .minHold(lockAtLeastFor != null ? lockAtLeastFor : defaults.minHold());
        Optional.ofNullable(ttl).or(defaults::ttl).ifPresent(builder::ttl);
        Optional.ofNullable(maxWait).or(defaults::maxWait).ifPresent(builder::maxWait);
        if (ttl == null) {
            defaults.extendWhenRemaining().ifPresent(builder::extendWhenRemaining);
        }
        return builder.build();
    }
}
