package io.redlock.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test-only pauses inside the client, for the fault-injection tests: a GC pause of the acquiring client while the
 * acquire replies are in flight, or right after the validity was computed. Disarmed by default; an armed pause fires
 * once, for the first acquisition of the given key that reaches that point. Not part of the API.
 */
public final class FaultHooks {

    /** Where in an acquisition a pause can be armed. */
    public enum Point {
        /** The requests were sent; the client stops before it looks at the replies (they arrive meanwhile). */
        BEFORE_DECISION,
        /** The majority and the validity are known; the client stops before it hands the lease over. */
        AFTER_VALIDITY
    }

    private static final Map<String, Duration> ARMED = new ConcurrentHashMap<>();

    private FaultHooks() {
    }

    /** Pauses the next acquisition of {@code key} at {@code point} for {@code pause}. */
    public static void arm(String key, Point point, Duration pause) {
        ARMED.put(point + " " + key, pause);
    }

    /** True while the pause is armed (it has not fired yet). */
    public static boolean isArmed(String key, Point point) {
        return ARMED.containsKey(point + " " + key);
    }

    /** Disarms every pause. */
    public static void reset() {
        ARMED.clear();
    }

    static void reached(String key, Point point) {
        if (ARMED.isEmpty()) {
            return;
        }
        Duration pause = ARMED.remove(point + " " + key);
        if (pause != null) {
            try {
                Thread.sleep(pause.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
