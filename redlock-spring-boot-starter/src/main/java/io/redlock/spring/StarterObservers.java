package io.redlock.spring;

import io.redlock.Redlock;
import io.redlock.RedlockObserver;
import io.redlock.spring.observation.RedlockObservations;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The starter's own observers (its metrics and observations) observe every {@link Redlock} bean, the auto-configured
 * one and an application's own alike; the auto-configured Redlock adds the application's observers
 * itself, not these.
 */
final class StarterObservers {

    private StarterObservers() {
    }

    /** Whether {@code observer} is one of the starter's: its metrics or its observations. */
    static boolean isStarters(Object observer) {
        return observer instanceof RedlockMetrics || observer instanceof RedlockObservations;
    }

    /** {@code observer} observes every Redlock bean from now on. */
    static void observeEvery(RedlockObserver observer, ObjectProvider<Redlock> redlocks) {
        redlocks.orderedStream().forEach(redlock -> {
            redlock.addObserver(observer);
        });
    }
}
