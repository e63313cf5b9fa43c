package io.redlock.internal.parts;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Test-only pauses inside the client, for the fault-injection tests: a GC pause of the acquiring client while the
 * acquire replies are in flight, right after the validity was computed, between the acquire and the commit round, or
 * after the last check as the lease is handed over. Disarmed by default; an armed pause fires once, for the first
 * acquisition of the given key that reaches that point. Not part of the API.
 */
public final class FaultHooks {

    /** Where in an acquisition a pause can be armed. */
    public enum Point {
        /** The requests were sent; the client stops before it looks at the replies (they arrive meanwhile). */
        BEFORE_DECISION,
        /** The majority and the validity are known; the client stops before it hands the lease over. */
        AFTER_VALIDITY,
        /** With fencing, the counters disagree and T is chosen; the client stops before it sends the commit round. */
        BEFORE_COMMIT,
        /**
         * The lease passed every check and the client stops before the caller gets it: a pause after the library's
         * last look at the clock, so the caller may be handed a lease that is already stale.
         */
        AFTER_HANDOVER
    }

    /** What an armed point does when it is reached. */
    private interface Pause {
        void hold() throws InterruptedException;
    }

    private final Map<String, Pause> armed = new ConcurrentHashMap<>();

    /** Pauses the next acquisition of {@code key} at {@code point} for {@code pause}. */
    public void arm(String key, Point point, Duration pause) {
        armed.put(point + " " + key, () -> Thread.sleep(pause.toMillis()));
    }

    /**
     * Pauses the next acquisition of {@code key} at {@code point} until {@code resume} completes (normally or not),
     * and never longer than {@code atMost}; the test decides what happens in the world meanwhile.
     */
    public void armUntil(String key, Point point, CompletionStage<?> resume, Duration atMost) {
        armed.put(point + " " + key, () -> {
            try {
                resume.toCompletableFuture().get(atMost.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // resumes anyway: a failed or forgotten resume must not hang the client
            }
        });
    }

    /** True while the pause is armed (it has not fired yet). */
    public boolean isArmed(String key, Point point) {
        return armed.containsKey(point + " " + key);
    }

    /** Disarms every pause. */
    public void reset() {
        armed.clear();
    }

    public void reached(String key, Point point) {
        if (armed.isEmpty()) {
            return;
        }
        Pause pause = armed.remove(point + " " + key);
        if (pause != null) {
            try {
                pause.hold();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
