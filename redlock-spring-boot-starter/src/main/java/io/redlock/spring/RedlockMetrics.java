package io.redlock.spring;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.redlock.Lease;
import io.redlock.LockTarget;
import io.redlock.LossReason;
import io.redlock.NodeFailure;
import io.redlock.Redlock;
import io.redlock.RedlockObserver;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * Micrometer meters for a {@link Redlock}, fed as its {@link RedlockObserver}:
 * <ul>
 *   <li>{@code redlock.acquire} timer, tags {@code kind=lock|several|read|write|permit} (the kind of lock,
 *       {@link LockTarget.Kind#tag()}) and {@code result=acquired|busy|error}: every acquisition call, all rounds;
 *       {@code busy} when the lock was held by another client, {@code error} when the call threw or too many nodes
 *       failed (down, timed out, erroring) for a majority;</li>
 *   <li>{@code redlock.extend} timer, tag {@code result=extended|failed};</li>
 *   <li>{@code redlock.lease.lost} counter, tag {@code reason=extension_refused|expired|max_hold|closed};</li>
 *   <li>{@code redlock.node.errors} counter, tags {@code node} ({@code host:port}, never credentials; a
 *       sentinel-managed master by its master name, see {@link NodeNames}) and {@code kind=timeout|unavailable|error};</li>
 *   <li>{@code redlock.leases.active} gauge: leases being kept alive right now ({@link #bindActiveLeases}): every
 *       lease of {@code @Locked}, {@link RedlockTemplate}, {@code withLock} and {@code RedlockLock}, not the bare
 *       leases of {@code tryAcquire}/{@code acquire}, which nothing extends.</li>
 * </ul>
 * No meter is tagged with the resource: resource names are unbounded.
 */
public class RedlockMetrics implements RedlockObserver {

    private final MeterRegistry registry;
    private final Map<LockTarget.Kind, Map<AcquireResult, Timer>> acquire = new EnumMap<>(LockTarget.Kind.class);
    private final Timer extended;
    private final Timer failed;
    private final Map<LossReason, Counter> lost = new EnumMap<>(LossReason.class);

    public RedlockMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (LockTarget.Kind kind : LockTarget.Kind.values()) {
            Map<AcquireResult, Timer> byResult = new EnumMap<>(AcquireResult.class);
            for (AcquireResult result : AcquireResult.values()) {
                byResult.put(result, Timer.builder("redlock.acquire")
                        .description("Redlock acquisition calls (all rounds) by kind of lock and result")
                        .tag("kind", kind.tag())
                        .tag("result", lower(result))
                        .register(registry));
            }
            acquire.put(kind, byResult);
        }
        extended = extendTimer("extended");
        failed = extendTimer("failed");
        for (LossReason reason : LossReason.values()) {
            lost.put(reason, Counter.builder("redlock.lease.lost")
                    .description("Leases lost before their release, by reason")
                    .tag("reason", lower(reason))
                    .register(registry));
        }
    }

    private Timer extendTimer(String result) {
        return Timer.builder("redlock.extend")
                .description("Redlock lease extensions by result")
                .tag("result", result)
                .register(registry);
    }

    /** Registers the {@code redlock.leases.active} gauge on {@code redlock}. */
    public void bindActiveLeases(Redlock redlock) {
        Gauge.builder("redlock.leases.active", redlock, Redlock::activeLeases)
                .description("Leases kept alive by withLock, @Locked or a RedlockLock right now")
                .strongReference(true)
                .register(registry);
    }

    @Override
    public void acquisition(String resource, LockTarget.Kind kind, AcquireResult result, Duration took) {
        acquire.get(kind).get(result).record(took);
    }

    @Override
    public void extension(String resource, boolean extended, Duration took) {
        (extended ? this.extended : failed).record(took);
    }

    @Override
    public void nodeFailed(NodeFailure failure) {
        Counter.builder("redlock.node.errors")
                .description("Nodes that did not answer a round, or answered with an error")
                .tag("node", NodeNames.of(failure.node()))
                .tag("kind", lower(failure.kind()))
                .register(registry)
                .increment();
    }

    @Override
    public void leaseLost(Lease lease, LossReason reason) {
        lost.get(reason).increment();
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
