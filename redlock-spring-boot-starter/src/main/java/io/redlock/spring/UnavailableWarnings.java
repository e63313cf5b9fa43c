package io.redlock.spring;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The WARN of a {@link Locked @Locked} call skipped because too few nodes answered: at most one per method per
 * {@link #EVERY_SECONDS} seconds, saying how many more were skipped since the last one.
 */
final class UnavailableWarnings {

    static final long EVERY_SECONDS = 60;

    private static final Logger log = LoggerFactory.getLogger(LockedMethodInterceptor.class);

    /** Per method: when it last warned (nanoTime) and how many skips it has not told about. */
    private final Map<Method, long[]> byMethod = new ConcurrentHashMap<>();

    void skipped(LockedOperation operation, String resource) {
        long now = System.nanoTime();
        long[] state = byMethod.computeIfAbsent(operation.method(), m -> new long[] {now - TimeUnit.SECONDS.toNanos(
                EVERY_SECONDS), 0});
        long untold;
        synchronized (state) {
            if (now - state[0] < TimeUnit.SECONDS.toNanos(EVERY_SECONDS)) {
                state[1]++;
                return;
            }
            untold = state[1];
            state[0] = now;
            state[1] = 0;
        }
        log.warn("{}: call skipped, '{}' could not be locked because too few Redlock nodes answered (an outage, not"
                + " contention){}; onUnavailable = FAIL throws instead", operation.description(), resource,
                untold == 0 ? "" : "; " + untold + " more skipped for this since the last warning");
    }
}
