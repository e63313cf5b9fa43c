package io.redlock.bench;

import io.redlock.Redlock;
import io.redlock.RedlockReadWriteLock;
import io.redlock.RedlockSemaphore;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The pairs (an acquisition and its release) whose cost on the nodes the per-call checks measure, each on a resource
 * of its own: the plain lock of one resource ({@link #PLAIN}), then the {@link #KINDS}, a read lease, a permit of a
 * semaphore of 2 and a lock of 2 resources. Each supplier acquires (failing if refused) and returns the release.
 */
final class PairKinds {

    static final String PLAIN = "pair";
    /** The kinds of lock set beside the plain one: each a shared or multi-key lock with scripts of its own. */
    static final List<String> KINDS = List.of("read", "permit", "several (2)");

    private PairKinds() {
    }

    /** The plain pair on {@code resource}, then the kinds' on resources beside it, in that order. */
    static Map<String, Supplier<Runnable>> of(Redlock redlock, String resource, Duration ttl) {
        RedlockReadWriteLock readWrite = redlock.readWriteLock(resource + ":reading");
        RedlockSemaphore semaphore = redlock.semaphore(resource + ":permit", 2);
        List<String> several = List.of(resource + ":a", resource + ":b");
        Map<String, Supplier<Runnable>> pairs = new LinkedHashMap<>();
        pairs.put(PLAIN, () -> redlock.tryAcquire(resource, ttl).orElseThrow()::release);
        pairs.put(KINDS.get(0), () -> readWrite.tryAcquireRead(ttl).orElseThrow()::release);
        pairs.put(KINDS.get(1), () -> semaphore.tryAcquire(ttl).orElseThrow()::release);
        pairs.put(KINDS.get(2), () -> redlock.tryAcquireAll(several, ttl).orElseThrow()::release);
        return pairs;
    }
}
