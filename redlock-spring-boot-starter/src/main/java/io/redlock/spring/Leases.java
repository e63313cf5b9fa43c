package io.redlock.spring;

import io.redlock.Lease;
import io.redlock.LeaseWork;
import io.redlock.LockTarget;
import java.util.Optional;

/**
 * The lease held by the current thread for the work that {@link RedlockTemplate} or a {@link Locked @Locked} method is
 * running: use its {@link Lease#fencingToken() fencing token} for writes to the protected storage.
 *
 * <pre>{@code
 * @Locked(resource = "'orders:' + #order.id")
 * public void ship(Order order) {
 *     long token = Leases.current().orElseThrow().fencingToken();
 *     storage.save(order, token);
 * }
 * }</pre>
 *
 * Set around the work on the thread that runs it and restored afterwards, so nested locked calls see their own lease
 * and the outer one again after they return. Work handed to other threads does not see it: pass the lease along.
 */
public final class Leases {

    private static final ThreadLocal<Frame> CURRENT = new ThreadLocal<>();

    /** One lease on the current thread's stack of locked calls, and the lock it holds. */
    private record Frame(Object owner, LockTarget target, Lease lease, Frame outer) {
    }

    private Leases() {
    }

    /** The lease of the innermost locked work running on this thread; empty outside locked work. */
    public static Optional<Lease> current() {
        Frame frame = CURRENT.get();
        return frame == null ? Optional.empty() : Optional.of(frame.lease());
    }

    /**
     * A still valid lease of {@code target} taken by {@code owner} further up this thread's stack, if any: the same
     * lock (the same kind and resources), not another lock of the same resource.
     */
    static Optional<Lease> held(Object owner, LockTarget target) {
        for (Frame frame = CURRENT.get(); frame != null; frame = frame.outer()) {
            if (frame.owner() == owner && frame.target().equals(target) && frame.lease().isValid()) {
                return Optional.of(frame.lease());
            }
        }
        return Optional.empty();
    }

    /** Runs {@code work} with {@code lease} (of {@code target}) as the current lease, then restores the outer one. */
    static <T> T runWith(Object owner, LockTarget target, Lease lease, LeaseWork<T> work) throws Exception {
        Frame outer = CURRENT.get();
        CURRENT.set(new Frame(owner, target, lease, outer));
        try {
            return work.run(lease);
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
    }
}
