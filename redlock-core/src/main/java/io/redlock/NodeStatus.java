package io.redlock;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What one node holds for a resource, for {@link Redlock#status(String)}: read-only, a snapshot.
 *
 * @param node        {@code host:port}, never with credentials
 * @param problem     why the node could not be read, if it could not (then every other field is empty)
 * @param holder      the value of the lease holding the lock on this node, if any
 * @param ttl         the lock key's remaining time to live, if it is held and has one
 * @param fence       the node's fencing counter for the resource, if it has one
 * @param queueLength how many waiters are queued on this node (lapsed places included until a waiter drops them)
 * @param queueHead   the first waiter's id, if any
 * @param sharedBy    the leases that hold the resource together on this node, in the order they lapse: the readers
 *                    of a read lock, or the permit holders of a semaphore (whose values end in {@code .} and the
 *                    slot); the {@code holder} is then the lock's mark ({@code redlock:readers},
 *                    {@code redlock:permits:<n>}); empty otherwise
 */
public record NodeStatus(String node, Optional<String> problem, Optional<String> holder, Optional<Duration> ttl,
        OptionalLong fence, long queueLength, Optional<String> queueHead, List<String> sharedBy) {

    public NodeStatus {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(problem, "problem");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(ttl, "ttl");
        Objects.requireNonNull(fence, "fence");
        Objects.requireNonNull(queueHead, "queueHead");
        sharedBy = List.copyOf(sharedBy);
    }

    /** A node that could not be read, for {@code problem}. */
    public static NodeStatus unreachable(String node, String problem) {
        return new NodeStatus(node, Optional.of(problem), Optional.empty(), Optional.empty(), OptionalLong.empty(), 0,
                Optional.empty(), List.of());
    }

    /** True if the node answered. */
    public boolean answered() {
        return problem.isEmpty();
    }
}
