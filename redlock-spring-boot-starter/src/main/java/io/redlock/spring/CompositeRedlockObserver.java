package io.redlock.spring;

import io.redlock.NodeFailure;
import io.redlock.RedlockObserver;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Tells several observers; one that throws does not keep the others from being told. */
final class CompositeRedlockObserver implements RedlockObserver {

    private static final Logger log = LoggerFactory.getLogger(CompositeRedlockObserver.class);

    private final List<RedlockObserver> observers;

    CompositeRedlockObserver(List<RedlockObserver> observers) {
        this.observers = List.copyOf(observers);
    }

    List<RedlockObserver> observers() {
        return observers;
    }

    @Override
    public void acquisition(String resource, AcquireResult result, Duration took) {
        each(o -> o.acquisition(resource, result, took));
    }

    @Override
    public void extension(String resource, boolean extended, Duration took) {
        each(o -> o.extension(resource, extended, took));
    }

    @Override
    public void nodeFailed(NodeFailure failure) {
        each(o -> o.nodeFailed(failure));
    }

    private void each(Consumer<RedlockObserver> event) {
        for (RedlockObserver observer : observers) {
            try {
                event.accept(observer);
            } catch (RuntimeException e) {
                log.warn("RedlockObserver {} failed: {}", observer, e.toString());
            }
        }
    }
}
