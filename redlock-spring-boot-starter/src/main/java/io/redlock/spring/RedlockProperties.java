package io.redlock.spring;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Settings of the auto-configured {@link io.redlock.Redlock}, under {@code redlock.*}. Exactly one of three modes:
 * {@code redlock.nodes} (the Redlock algorithm over independent masters), {@code redlock.single.address} (one Redis,
 * SPEC S4) or {@code redlock.sentinel.master-name} with {@code redlock.sentinel.addresses} (one sentinel-managed master,
 * SPEC S5).
 */
@ConfigurationProperties(prefix = "redlock")
public class RedlockProperties {

    /** Whether to auto-configure a Redlock and a RedlockTemplate. */
    private boolean enabled = true;

    /**
     * Independent Redis masters for the Redlock algorithm, as Redis URIs (e.g. redis://:password@10.0.0.1:6379/0).
     * Use an odd number, at least 3, for fault tolerance.
     */
    private List<String> nodes;

    /** Single-instance mode: one Redis (SPEC S4), fine when the lock only saves duplicate work. */
    @NestedConfigurationProperty
    private final SingleProperties single = new SingleProperties();

    /** One sentinel-managed master as the single node (SPEC S5: a failover can lose a lock). */
    @NestedConfigurationProperty
    private final SentinelProperties sentinel = new SentinelProperties();

    /** Lease time of the acquisitions and extensions that do not give their own, e.g. 30s. */
    private Duration defaultTtl = Duration.ofSeconds(10);

    /** How long RedlockTemplate and @Locked wait for a lock when they are not told, e.g. 5s; 0s tries once. */
    private Duration defaultWait = Duration.ofSeconds(30);

    /** The longest time RedlockTemplate and @Locked keep extending a lease when they are not told (SPEC R8). */
    private Duration defaultMaxHold = Duration.ofMinutes(10);

    /** Clock drift allowance as a fraction of the TTL, in [0, 0.5); 2 ms are always added. */
    private double driftFactor = 0.01;

    /** How long one node's reply is awaited; must be smaller than every TTL. */
    private Duration nodeTimeout = Duration.ofMillis(50);

    /** Random delay between two acquisition rounds. */
    private final Retry retry = new Retry();

    /** Prepended to every resource to form the Redis key; empty means key = resource. */
    private String keyPrefix = "";

    /** Fencing tokens. */
    private final Fencing fencing = new Fencing();

    /** Whether waiting acquisitions retry as soon as the holder releases (pub/sub), not only after their delay. */
    private boolean wakeOnRelease = true;

    /** Micrometer Observations of acquisitions and holds (tracing). */
    private final Observations observations = new Observations();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public List<String> getNodes() {
        return nodes;
    }

    public void setNodes(List<String> nodes) {
        this.nodes = nodes == null ? null : new ArrayList<>(nodes);
    }

    public SingleProperties getSingle() {
        return single;
    }

    public SentinelProperties getSentinel() {
        return sentinel;
    }

    public Duration getDefaultTtl() {
        return defaultTtl;
    }

    public void setDefaultTtl(Duration defaultTtl) {
        this.defaultTtl = defaultTtl;
    }

    public Duration getDefaultWait() {
        return defaultWait;
    }

    public void setDefaultWait(Duration defaultWait) {
        this.defaultWait = defaultWait;
    }

    public Duration getDefaultMaxHold() {
        return defaultMaxHold;
    }

    public void setDefaultMaxHold(Duration defaultMaxHold) {
        this.defaultMaxHold = defaultMaxHold;
    }

    public double getDriftFactor() {
        return driftFactor;
    }

    public void setDriftFactor(double driftFactor) {
        this.driftFactor = driftFactor;
    }

    public Duration getNodeTimeout() {
        return nodeTimeout;
    }

    public void setNodeTimeout(Duration nodeTimeout) {
        this.nodeTimeout = nodeTimeout;
    }

    public Retry getRetry() {
        return retry;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public Fencing getFencing() {
        return fencing;
    }

    public boolean isWakeOnRelease() {
        return wakeOnRelease;
    }

    public void setWakeOnRelease(boolean wakeOnRelease) {
        this.wakeOnRelease = wakeOnRelease;
    }

    public Observations getObservations() {
        return observations;
    }

    /** Delay between acquisition rounds: uniform in [min-delay, max-delay]; keep it longer than one round (SPEC R6). */
    public static class Retry {

        /** Shortest delay between two acquisition rounds. */
        private Duration minDelay = Duration.ofMillis(100);

        /** Longest delay between two acquisition rounds. */
        private Duration maxDelay = Duration.ofMillis(300);

        public Duration getMinDelay() {
            return minDelay;
        }

        public void setMinDelay(Duration minDelay) {
            this.minDelay = minDelay;
        }

        public Duration getMaxDelay() {
            return maxDelay;
        }

        public void setMaxDelay(Duration maxDelay) {
            this.maxDelay = maxDelay;
        }
    }

    /** Fencing tokens (FENCING.md). */
    public static class Fencing {

        /** Leases carry fencing tokens; false is the plain algorithm, wire-compatible with other Redlock clients. */
        private boolean enabled = true;

        /**
         * Keeps tokens growing when a counter expired or a node restarted without persistence. Unset: on with fencing;
         * false needs counter-ttl 0.
         */
        private Boolean clockFloor;

        /**
         * How long a resource's fencing counter stays on a node after its last grant. Unset: 24h; 0 keeps counters
         * forever; otherwise at least 2s.
         */
        private Duration counterTtl;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Boolean getClockFloor() {
            return clockFloor;
        }

        public void setClockFloor(Boolean clockFloor) {
            this.clockFloor = clockFloor;
        }

        public Duration getCounterTtl() {
            return counterTtl;
        }

        public void setCounterTtl(Duration counterTtl) {
            this.counterTtl = counterTtl;
        }
    }

    /** Micrometer Observations ({@code redlock.acquisition}, {@code redlock.hold}). */
    public static class Observations {

        /**
         * Whether the resource is a high-cardinality key value of each observation (redlock.resource): seen by
         * tracing, never a metric tag. Off, as resource names may be sensitive.
         */
        private boolean includeResource;

        public boolean isIncludeResource() {
            return includeResource;
        }

        public void setIncludeResource(boolean includeResource) {
            this.includeResource = includeResource;
        }
    }
}
