package io.redlock.histories;

import io.redlock.NodeFailure;
import io.redlock.RedlockObserver;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the node failures a client saw (a node that did not answer in time, a connection lost): an attempt on a free
 * lock may come back empty only if one happened meanwhile, or if the attempt took longer than its lease's validity.
 */
final class NodeFailures implements RedlockObserver {

    private final AtomicLong count = new AtomicLong();

    @Override
    public void nodeFailed(NodeFailure failure) {
        count.incrementAndGet();
    }

    long count() {
        return count.get();
    }
}
