package io.redlock.internal.parts;

import io.redlock.RedlockConfig;
import io.redlock.RedlockConfigException;
import io.redlock.internal.protocol.Keys;
import io.redlock.internal.time.DurationText;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Validation of settings and call arguments; every failure is a {@link RedlockConfigException} naming the value. */
public final class ConfigCheck {

    private static final Duration ONE_MILLI = Duration.ofMillis(1);
    private static final int NANOS_PER_MILLI = 1_000_000;
    private static final String FLOOR_FOR_EXPIRY = "fencing counters that expire (fenceCounterTtl, default "
            + RedlockConfig.DEFAULT_FENCE_COUNTER_TTL.toHours() + " h) need the clock floor, which brings an expired"
            + " counter back above the tokens it issued: keep fencingClockFloor on, or keep counters forever with"
            + " fenceCounterTtl(Duration.ZERO)";

    private ConfigCheck() {
    }

    /** The minimum hold time: not negative, at most the maximum hold time. */
    public static void minHold(Duration minHold, Duration maxHold) {
        if (minHold == null) {
            throw new RedlockConfigException(List.of("minHold"), "minHold must not be null (Duration.ZERO for none)");
        }
        if (minHold.isNegative()) {
            throw new RedlockConfigException(List.of("minHold"), "minHold must not be negative, was " + DurationText.of(minHold));
        }
        if (minHold.compareTo(maxHold) > 0) {
            throw new RedlockConfigException(List.of("minHold", "maxHold"), "minHold must be at most maxHold "
                    + DurationText.of(maxHold) + ", was " + DurationText.of(minHold));
        }
    }

    public static void positive(String name, Duration value) {
        if (value == null) {
            throw new RedlockConfigException(List.of(name), name + " must not be null");
        }
        if (value.isNegative() || value.isZero()) {
            throw new RedlockConfigException(List.of(name), name + " must be positive, was " + DurationText.of(value));
        }
    }

    /**
     * The fencing counter's settings: the clock floor and the counter horizon only with fencing; a horizon of zero
     * (forever) or at least {@link RedlockConfig#MIN_FENCE_COUNTER_TTL} in whole milliseconds; counters that expire only
     * with the clock floor, which brings them back above the tokens they issued. {@code clockFloor} is null when not
     * given, {@code ttlSet} false when the horizon was not given.
     */
    public static void fenceCounter(boolean fencing, Boolean clockFloor, boolean ttlSet, Duration ttl) {
        if (!fencing && Boolean.TRUE.equals(clockFloor)) {
            throw new RedlockConfigException(List.of("fencingClockFloor", "fencing"),
                    "fencingClockFloor(true) needs fencing(true)");
        }
        if (!ttlSet) {
            if (fencing && Boolean.FALSE.equals(clockFloor)) {
                throw new RedlockConfigException(List.of("fencingClockFloor", "fenceCounterTtl"), FLOOR_FOR_EXPIRY);
            }
            return;
        }
        if (!fencing) {
            throw new RedlockConfigException(List.of("fenceCounterTtl", "fencing"), "fenceCounterTtl needs fencing(true)");
        }
        if (ttl == null) {
            throw new RedlockConfigException(List.of("fenceCounterTtl"),
                    "fenceCounterTtl must not be null (Duration.ZERO keeps counters forever)");
        }
        if (ttl.isZero()) {
            return;
        }
        if (ttl.compareTo(RedlockConfig.MIN_FENCE_COUNTER_TTL) < 0 || ttl.toNanosPart() % NANOS_PER_MILLI != 0) {
            throw new RedlockConfigException(List.of("fenceCounterTtl"), "fenceCounterTtl must be zero (forever) or at"
                    + " least " + RedlockConfig.MIN_FENCE_COUNTER_TTL.toSeconds() + " s in whole milliseconds, was " + DurationText.of(ttl));
        }
        if (Boolean.FALSE.equals(clockFloor)) {
            throw new RedlockConfigException(List.of("fencingClockFloor", "fenceCounterTtl"), FLOOR_FOR_EXPIRY);
        }
    }

    /**
     * The TTL must be a whole number of milliseconds of at least 1 ms that leaves a validity after the clock-drift
     * allowance and one per-node timeout (SPEC R4): a shorter one could never be granted, every node's yes
     * notwithstanding.
     */
    public static void ttlLeavesValidity(String name, Duration ttl, Duration nodeTimeout, double driftFactor) {
        positive(name, ttl);
        if (ttl.compareTo(ONE_MILLI) < 0) {
            // PX takes milliseconds: anything shorter would be sent as PX 0, which Redis rejects
            throw new RedlockConfigException(List.of(name), name + " must be at least 1 ms (PX takes milliseconds), was " + DurationText.of(ttl));
        }
        if (ttl.toNanosPart() % NANOS_PER_MILLI != 0) {
            // PX would silently drop the fraction: the caller would hold the lock for less than asked
            throw new RedlockConfigException(List.of(name), name + " must be a whole number of milliseconds, was "
                    + DurationText.of(ttl));
        }
        if (Validity.validityNanos(ttl.toNanos(), nodeTimeout.toNanos(), driftFactor) <= 0) {
            double driftMillis = Validity.driftNanos(ttl.toNanos(), driftFactor) / 1e6;
            throw new RedlockConfigException(List.of(name, "nodeTimeout"), String.format(Locale.ROOT,
                    "%s must leave a validity after the clock-drift allowance (%s %% of it + 2 ms = %.2f ms) and the"
                            + " per-node timeout %s: at least %d ms, was %s", name, driftFactor * 100, driftMillis,
                    DurationText.of(nodeTimeout), Validity.shortestTtlMillis(nodeTimeout.toNanos(), driftFactor),
                    DurationText.of(ttl)));
        }
        if (ttl.compareTo(Duration.ofDays(365)) > 0) {
            throw new RedlockConfigException(List.of(name), name + " must be at most 365 days, was " + DurationText.of(ttl));
        }
    }

    public static void driftFactor(double driftFactor) {
        if (!(driftFactor >= 0 && driftFactor < 0.5)) {
            throw new RedlockConfigException(List.of("driftFactor"), "driftFactor must be in [0, 0.5), was " + driftFactor);
        }
    }

    /** A password given on its own: not blank. Never shown, not even when refused. */
    public static void password(CharSequence password) {
        if (password.toString().isBlank()) {
            throw new RedlockConfigException(List.of("password"), "password must not be blank");
        }
    }

    public static void resource(String resource) {
        if (resource == null || resource.isBlank()) {
            throw new RedlockConfigException("resource must not be blank, was '" + resource + "'");
        }
        int bytes = resource.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > RedlockConfig.MAX_RESOURCE_BYTES) {
            throw new RedlockConfigException("resource must be at most " + RedlockConfig.MAX_RESOURCE_BYTES
                    + " bytes in UTF-8, was " + bytes + " bytes ('" + resource.substring(0, 32) + "...')");
        }
        for (String suffix : Keys.RESERVED_SUFFIXES) {
            if (resource.endsWith(suffix)) {
                throw new RedlockConfigException("resource must not end with '" + suffix + "', was '" + resource
                        + "': the names ending with " + Keys.RESERVED_SUFFIXES + " are the library's own"
                        + " keys beside a lock key ('" + resource.substring(0, resource.length() - suffix.length())
                        + "' keeps its " + suffix.substring(1) + " there)");
            }
        }
    }

    /**
     * The resources of one lock of several: at least one, at most {@link RedlockConfig#MAX_RESOURCES_AT_ONCE}, each a
     * valid resource, none twice. Returns them as an immutable list in the caller's order.
     */
    public static List<String> resources(Collection<String> resources) {
        if (resources == null || resources.isEmpty()) {
            throw new RedlockConfigException("resources must name at least one resource, was " + resources);
        }
        if (resources.size() > RedlockConfig.MAX_RESOURCES_AT_ONCE) {
            throw new RedlockConfigException("a lock of several resources takes at most "
                    + RedlockConfig.MAX_RESOURCES_AT_ONCE + " of them, was " + resources.size());
        }
        Set<String> seen = new HashSet<>();
        for (String resource : resources) {
            resource(resource);
            if (!seen.add(resource)) {
                throw new RedlockConfigException("resources must not name one resource twice, '" + resource
                        + "' was");
            }
        }
        return List.copyOf(resources);
    }

    /** A semaphore's permits: at least 1, at most {@link RedlockConfig#MAX_PERMITS}. */
    public static void permits(int permits) {
        if (permits < 1 || permits > RedlockConfig.MAX_PERMITS) {
            throw new RedlockConfigException("permits must be between 1 and " + RedlockConfig.MAX_PERMITS + ", was "
                    + permits);
        }
    }

    public static void maxWait(Duration maxWait) {
        maxWait("maxWait", maxWait);
    }

    public static void maxWait(String name, Duration maxWait) {
        if (maxWait == null) {
            throw new RedlockConfigException(List.of(name), name + " must not be null");
        }
        if (maxWait.isNegative()) {
            throw new RedlockConfigException(List.of(name), name + " must not be negative, was " + DurationText.of(maxWait));
        }
    }

    /**
     * A kept-alive lease needs an extension to start while a whole round still fits in the validity left right after
     * the previous one: {@code extendWhenRemaining} at most {@code latest} (see {@code LockPlan}).
     */
    public static void extendWhenRemaining(Duration extendWhenRemaining, Duration ttl, Duration latest) {
        positive("extendWhenRemaining", extendWhenRemaining);
        if (extendWhenRemaining.compareTo(latest) > 0) {
            throw new RedlockConfigException(List.of("extendWhenRemaining"), "extendWhenRemaining must be at most " + DurationText.of(latest) + " for a ttl of "
                    + DurationText.of(ttl)
                    + " (ttl - drift - per-node timeout: the validity left right after an extension), was "
                    + DurationText.of(extendWhenRemaining));
        }
    }
}
