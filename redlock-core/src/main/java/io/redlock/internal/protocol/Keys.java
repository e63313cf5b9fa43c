package io.redlock.internal.protocol;

import io.redlock.RedlockConfig;
import io.redlock.RedlockConfigException;
import io.redlock.internal.node.Script;
import java.util.List;

/**
 * The Redis names of one lock, built in this one place from its key (the key prefix and the resource): the lock
 * key itself (the only one other Redlock clients know), the fencing counter, the waiter queue, the waiters' deadlines,
 * and the pub/sub channel a release is announced on. The lock key and the {@code base} the others are built on are
 * kept (a held lease keeps its Keys); the others are built when a script needs them. Each script gets its keys in the
 * order its header documents.
 *
 * <p>Two layouts. Plain: {@code base} is the lock key ({@code <key>:fence}, …). Hash-tagged, when a quorum member is a
 * Redis Cluster: {@code base} is {@link HashTag#base}, so {@code {<key>}:fence} and the rest share the lock key's slot
 * while the lock key stays {@code <key>}.
 */
public record Keys(String lock, String base) implements HeldKeys {

    /** Suffix of the channel a release publishes on, so waiters wake at once: {@code <key>:released}. */
    static final String RELEASED_SUFFIX = ":released";

    /**
     * Suffix of the per-resource fencing counter key: {@code <key>:fence} (expires {@link RedlockConfig#fenceCounterTtl()} after
     * its last grant, never deleted by a release).
     */
    public static final String FENCE_SUFFIX = ":fence";
    /**
     * Suffix of the per-resource queue of waiters with fencing: {@code <key>:waiters}, a sorted set of waiter ids,
     * with their deadlines in {@code <key>:waiters:until}. Both expire when nobody waits.
     */
    public static final String WAITERS_SUFFIX = ":waiters";
    /** Suffix, after {@link #WAITERS_SUFFIX}, of the waiters' deadlines. */
    public static final String DEADLINES_SUFFIX = ":until";
    /**
     * Suffix of the readers of a read lock: {@code <key>:readers}, a sorted set of reader value by when its entry
     * lapses; it lives as long as the longest reader.
     */
    public static final String READERS_SUFFIX = ":readers";
    /**
     * Suffix of the holders of a semaphore's permits: {@code <key>:permits}, a sorted set of holder value (which ends
     * in {@code .} and the holder's slot) by when its entry lapses; it lives as long as the longest holder.
     */
    public static final String PERMITS_SUFFIX = ":permits";
    /**
     * The endings of the library's own keys beside a lock key ({@code <key>:fence}, {@code <key>:waiters},
     * {@code <key>:waiters:until}, {@code <key>:readers}, {@code <key>:permits}): a resource whose name ends with one of
     * them would be another resource's counter, queue or holders, so it is refused ({@link RedlockConfigException}).
     */
    public static final List<String> RESERVED_SUFFIXES = List.of(FENCE_SUFFIX, WAITERS_SUFFIX,
            WAITERS_SUFFIX + DEADLINES_SUFFIX, READERS_SUFFIX, PERMITS_SUFFIX);
    /**
     * What the lock key holds while read-locked: the readers' mark (no lease value contains {@code :}, so none equals
     * it). Written by the scripts ({@code lua/shared.lua}); {@link io.redlock.ResourceStatus} reads it.
     */
    public static final String READ_MARK = "redlock:readers";
    /** What the lock key holds while a semaphore's permit lives: this, then the number of permits. */
    public static final String PERMITS_MARK = "redlock:permits:";

    /** The plain layout. */
    public static Keys of(String key) {
        return new Keys(key, key);
    }

    /**
     * The keys of {@code resource}'s lock under {@code config}: the lock key is the key prefix, then the resource; the
     * others are hash-tagged into its slot when a member is a Redis Cluster.
     */
    public static Keys of(RedlockConfig config, String resource) {
        String prefix = config.keyPrefix();
        // no prefix: the lease shares one string
        return of(prefix.isEmpty() ? resource : prefix + resource, config.hashTaggedKeys());
    }

    /**
     * The layout of a configuration: hash-tagged or plain. A key that cannot be tagged into its own slot (no tag, but a
     * {@code }} in it) fails with a {@link RedlockConfigException} naming the resource.
     */
    public static Keys of(String key, boolean hashTagged) {
        if (!hashTagged) {
            return of(key);
        }
        String base = HashTag.base(key);
        if (base == null) {
            throw new RedlockConfigException("with a Redis Cluster member a resource whose key contains '}'"
                    + " needs a hash tag ({tag}) before it, so every key of the lock lands in one slot; was '" + key
                    + "'");
        }
        return new Keys(key, base);
    }

    public String fence() {
        return base + FENCE_SUFFIX;
    }

    public String waiters() {
        return base + WAITERS_SUFFIX;
    }

    public String readers() {
        return base + READERS_SUFFIX;
    }

    public String permits() {
        return base + PERMITS_SUFFIX;
    }

    String deadlines() {
        return waiters() + DEADLINES_SUFFIX;
    }

    public String released() {
        return lock + RELEASED_SUFFIX;
    }

    @Override
    public Script acquireScript() {
        return Scripts.ACQUIRE_FENCED;
    }

    @Override
    public Script commitScript() {
        return Scripts.COMMIT_FENCE;
    }

    @Override
    public String[] extend() {
        return new String[] {lock};
    }

    @Override
    public List<String> releasedChannels() {
        return List.of(released());
    }

    @Override
    public boolean queues() {
        return true;
    }

    /** ARGV of the fenced acquire of a caller that will not wait: no place in the queue. */
    @Override
    public String[] acquireArgs(String value, long ttlMillis, ScriptSettings settings) {
        return new Scripts.AcquireFenced(value, ttlMillis, settings.clockFloor(), settings.counterTtl(), List.of())
                .argv();
    }

    /**
     * ARGV of the fenced acquire of a waiter: its place in the queue is its id and the largest ticket a node gave it
     * (0 if none). Its KEYS are {@link #acquireInQueue()}.
     */
    public String[] acquireArgs(String value, long ttlMillis, ScriptSettings settings, String waiterId, long ticket) {
        return Scripts.AcquireFenced.waiting(value, ttlMillis, settings.clockFloor(), settings.counterTtl(), waiterId,
                ticket, settings.placeLifetime()).argv();
    }

    /** KEYS of the fenced acquire of a caller that will not wait, and of the fence commit: lock, counter. */
    @Override
    public String[] acquire() {
        return new String[] {lock, fence()};
    }

    /** KEYS of the fenced acquire of a waiter: lock, counter, queue, deadlines. */
    public String[] acquireInQueue() {
        String waiters = waiters();
        return new String[] {lock, fence(), waiters, waiters + DEADLINES_SUFFIX};
    }

    /** KEYS of leaving the queue: queue, deadlines. */
    public String[] queue() {
        String waiters = waiters();
        return new String[] {waiters, waiters + DEADLINES_SUFFIX};
    }

    /** KEYS of the release: lock, queue (a release publishes only while someone waits, if asked to). */
    @Override
    public String[] release() {
        return new String[] {lock, waiters()};
    }
}
