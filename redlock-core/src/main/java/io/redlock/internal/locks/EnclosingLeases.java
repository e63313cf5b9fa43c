package io.redlock.internal.locks;

import io.redlock.LeaseLostException;
import io.redlock.LockTarget;
import io.redlock.LossReason;
import io.redlock.internal.lease.RedlockLease;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Callable;

/**
 * The leases of the blocking {@code withLock} calls running on each thread, so that a nested call for a resource
 * whose enclosing lease was lost is refused instead of acquiring afresh: the enclosing work read under the lost lease
 * and may still write, so its thread's critical section on that resource is broken until that call has returned.
 */
final class EnclosingLeases {

    private record Frame(LockTarget target, RedlockLease lease) {
    }

    private final ThreadLocal<Deque<Frame>> frames = new ThreadLocal<>();

    /**
     * Refuses a nested call for {@code target} on this thread if an enclosing call's lease on one of its resources
     * was lost or ran out.
     *
     * @throws LeaseLostException naming the resource and the enclosing lease's loss
     */
    void refuseIfBroken(LockTarget target) {
        Deque<Frame> stack = frames.get();
        if (stack == null) {
            return;
        }
        for (Frame frame : stack) {
            if (!frame.lease().isValid()) {
                for (String resource : target.resources()) {
                    if (frame.target().resources().contains(resource)) {
                        throw new LeaseLostException(resource,
                                frame.lease().lossReason().orElse(LossReason.EXPIRED), null);
                    }
                }
            }
        }
    }

    /** Runs {@code work} on this thread with {@code lease} of {@code target} as its innermost enclosing lease. */
    <T> T within(LockTarget target, RedlockLease lease, Callable<T> work) throws Exception {
        Deque<Frame> stack = frames.get();
        if (stack == null) {
            stack = new ArrayDeque<>();
            frames.set(stack);
        }
        stack.push(new Frame(target, lease));
        try {
            return work.call();
        } finally {
            stack.pop();
            if (stack.isEmpty()) {
                frames.remove();
            }
        }
    }
}
